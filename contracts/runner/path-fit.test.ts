import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { Resource } from '../../src/core/resources/model.js';
import { pathUnfitFor } from './path-fit.js';

/** Reserved addresses created with a region's slug and named by an ipv6 address in their path (DigitalOcean's shape, before inference keyed them by their ip). */
function reserved(identifier: Resource['identifier']): Resource {
  return {
    name: 'reserved_ipv6',
    collectionPath: '/v2/reserved_ipv6',
    parentParameters: [],
    identifier,
    operations: {
      create: { method: 'post', path: '/v2/reserved_ipv6', name: 'reservedIPv6_create' },
      read: { method: 'get', path: '/v2/reserved_ipv6/{reserved_ipv6}', name: 'reservedIPv6_get' },
    },
    createSchema: { type: 'object', required: ['region_slug'], properties: { region_slug: { type: 'string' } } },
    webhooks: [],
    source: 'extension',
  };
}

const operations = [
  { method: 'post', path: '/v2/reserved_ipv6', request: {} },
  { method: 'get', path: '/v2/reserved_ipv6/{reserved_ipv6}', request: { path: [{ name: 'reserved_ipv6', schema: { type: 'string', format: 'ipv6' } }] } },
] as unknown as Operation[];

describe('pathUnfitFor', () => {
  it('says why where the id the client gives is not of the format the item path declares', () => {
    const slug = reserved({ property: 'region_slug', parameter: 'reserved_ipv6', assignedBy: 'client', type: { kind: 'string' } });
    expect(pathUnfitFor(slug, operations)).toMatch(/\{reserved_ipv6\} \(format ipv6\).*region_slug/);
  });

  it('finds nothing unfit where the id keeps the format, or where the server assigns it', () => {
    const ip = reserved({ property: 'ip', parameter: 'reserved_ipv6', assignedBy: 'client', type: { kind: 'string', rules: { format: 'ipv6' } } });
    expect(pathUnfitFor(ip, operations)).toBeUndefined();
    const assigned = reserved({ property: 'region_slug', parameter: 'reserved_ipv6', assignedBy: 'server', type: { kind: 'string' } });
    expect(pathUnfitFor(assigned, operations)).toBeUndefined();
  });
});
