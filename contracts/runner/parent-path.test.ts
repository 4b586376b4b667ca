import { describe, expect, it } from 'vitest';
import { sameParent, withParentOf } from './parent-path.js';

describe('withParentOf', () => {
  it("fills an item path's parent parameter from the path the item was created at, leaving its own", () => {
    expect(withParentOf('/owners/{ownerId}/pets/{petId}', '/owners/65535/pets')).toBe('/owners/65535/pets/{petId}');
    expect(withParentOf('/owners/{ownerId}/pets/{petId}', '/owners/65535/pets?token=t')).toBe('/owners/65535/pets/{petId}');
  });

  it("puts a list of another parent back under the created item's parent", () => {
    expect(withParentOf('/owners/2682248573187019464/pets', '/owners/65535/pets')).toBe('/owners/2682248573187019464/pets');
    expect(withParentOf('/owners/{ownerId}/pets', '/owners/65535/pets')).toBe('/owners/65535/pets');
  });

  it('leaves a path whose static segments differ, and a flat resource, as they are', () => {
    expect(withParentOf('/shelters/{shelterId}/pets/{petId}', '/owners/1/pets')).toBe('/shelters/{shelterId}/pets/{petId}');
    expect(withParentOf('/plants/{id}', '/plants')).toBe('/plants/{id}');
  });

  it("fills no parameter from a create path's trailing slash (Gitea's POST /orgs/{org}/hooks/)", () => {
    expect(withParentOf('/orgs/{org}/hooks/{id}', '/orgs/acme/hooks/')).toBe('/orgs/acme/hooks/{id}');
    expect(withParentOf('/orgs/{org}/hooks/{id}', '/orgs/acme/hooks/?token=t')).toBe('/orgs/acme/hooks/{id}');
    expect(withParentOf('/orgs/{org}/hooks/', '/orgs/acme/hooks/')).toBe('/orgs/acme/hooks/');
  });
});

describe('sameParent', () => {
  it("sends a later create to the earlier one's collection, keeping its own query", () => {
    expect(sameParent('/owners/7/pets?token=a', '/owners/256/pets?token=b')).toBe('/owners/7/pets?token=b');
    expect(sameParent('/owners/7/pets', '/owners/256/pets')).toBe('/owners/7/pets');
  });
});
