/**
 * owners-pets.yaml's `per_page` has a maximum and no minimum, so -1 is a valid limit: the list
 * answers an empty page (at most none), not a 400 the document does not declare; so does a `page`
 * (from 1, no maximum) beyond every item, however large.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/owners-pets.yaml', import.meta.url).pathname;

describe('owners-pets: paging', () => {
  const server = serverFor({ spec: SPEC });

  it('answers a negative per_page the schema allows with an empty page', async () => {
    const created = await send(`${server.current.url}/owners/1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', species: 'dog' }),
    });
    expect(created.status).toBe(201);
    const none = await send(`${server.current.url}/owners/1/pets?per_page=-1`, { method: 'GET' });
    expect(none.status).toBe(200);
    expect((none.json as { pets: unknown[] }).pets).toEqual([]);
    expectConforms(server.current.document, 'get', '/owners/{ownerId}/pets', none);
    const far = await send(`${server.current.url}/owners/1/pets?per_page=-9007199254740990`, { method: 'GET' });
    expect(far.status).toBe(200);
  });

  it('answers a page beyond every item (any page from 1 the schema allows) with an empty page', async () => {
    for (const page of ['2', '9007199254740991', '99999999999999999999']) {
      const reply = await send(`${server.current.url}/owners/1/pets?page=${page}&per_page=100`, { method: 'GET' });
      expect(reply.status, `page ${page}: ${reply.text}`).toBe(200);
      expect((reply.json as { pets: unknown[] }).pets).toEqual([]);
      expectConforms(server.current.document, 'get', '/owners/{ownerId}/pets', reply);
    }
  });
});
