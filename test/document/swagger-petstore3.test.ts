/**
 * The Swagger Petstore 3 (test/fixtures/documents/swagger-petstore3.yaml): every create body's
 * `id` is optional and not readOnly, so the client may give it and the server assigns one when it
 * does not ("either"). Inference must name pet, order and user, and must not take PUT /pet (an
 * update by body) or /pet/findByStatus for a role.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';

const SPEC = new URL('../fixtures/documents/swagger-petstore3.yaml', import.meta.url).pathname;

describe('resources of the Swagger Petstore 3', () => {
  it('infers pet, order and user, each identified by an id the client may give (else the server assigns it)', async () => {
    const model = inferResources(await loadDocument(SPEC));
    const summary = model.resources.map((resource) => ({
      name: resource.name,
      collectionPath: resource.collectionPath,
      itemPath: resource.itemPath,
      property: resource.identifier.property,
      assignedBy: resource.identifier.assignedBy,
      kind: resource.identifier.type.kind,
      roles: Object.keys(resource.operations).sort(),
    }));
    expect(summary).toEqual([
      {
        name: 'pet',
        collectionPath: '/pet',
        itemPath: '/pet/{petId}',
        property: 'id',
        assignedBy: 'either',
        kind: 'integer',
        roles: ['create', 'delete', 'read'],
      },
      {
        name: 'order',
        collectionPath: '/store/order',
        itemPath: '/store/order/{orderId}',
        property: 'id',
        assignedBy: 'either',
        kind: 'integer',
        roles: ['create', 'delete', 'read'],
      },
      {
        name: 'user',
        collectionPath: '/user',
        itemPath: '/user/{username}',
        property: 'username',
        assignedBy: 'either',
        kind: 'string',
        roles: ['create', 'delete', 'read', 'replace'],
      },
    ]);
    expect(model.notes.filter((note) => note.level === 'ambiguous')).toEqual([]);
  });

  it('settling /pet by config ({"id": "id"}) still gives the same identifier', async () => {
    const model = inferResources(await loadDocument(SPEC), { '/pet': { id: 'id' } });
    const pet = model.resources.find((resource) => resource.collectionPath === '/pet');
    expect(pet?.source).toBe('config');
    expect(pet?.identifier).toMatchObject({ parameter: 'petId', property: 'id', assignedBy: 'either' });
  });
});

describe('assignedBy settles the mode by config', () => {
  it('"either" where the create body has the id optional settles it so; on a required id it cannot be (the document makes the client give it)', async () => {
    const model = inferResources(await loadDocument(SPEC), { '/pet': { id: 'id', assignedBy: 'either' } });
    expect(model.resources.find((resource) => resource.name === 'pet')?.identifier).toMatchObject({ property: 'id', assignedBy: 'either' });
    const document = await loadDocument(new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname);
    expect(inferResources(document, { '/plants': { assignedBy: 'either' } }).resources).toEqual([]);
    expect(() => inferResources(document, { '/plants': { id: 'id', assignedBy: 'either' } })).toThrow(
      `"assignedBy": "either", but the create body of /plants requires "id": the client always gives it ("client")`,
    );
  });

  it('"client" on an optional id: the client always gives it', async () => {
    const model = inferResources(await loadDocument(SPEC), { '/pet': { assignedBy: 'client' } });
    expect(model.resources.find((resource) => resource.name === 'pet')?.identifier).toMatchObject({ property: 'id', assignedBy: 'client' });
  });

  it('"either" for a property the create body lacks is refused, naming it', async () => {
    const expanded = await loadDocument(new URL('../fixtures/documents/petstore-expanded.yaml', import.meta.url).pathname);
    expect(() => inferResources(expanded, { '/pets': { id: 'id', assignedBy: 'either' } })).toThrow(
      `"assignedBy": "either", but the create body of /pets has no property "id" for the client to send`,
    );
  });
});
