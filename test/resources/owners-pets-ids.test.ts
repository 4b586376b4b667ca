/**
 * owners-pets.yaml's item paths: what a path segment that is, or cannot be, an identifier gets.
 * `ownerId` is an int64 from 1 and GET /owners/{ownerId} declares 200 and 404 only; `petId` is an
 * int32 with no minimum (the Pet's own id has minimum 1), and its operations declare no failure.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/owners-pets.yaml', import.meta.url).pathname;

describe('owners-pets: identifiers in the path', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string) => send(`${server.current.url}${path}`, { method });

  it('answers an owner id that cannot be one (not an integer, below its minimum) with the declared 404', async () => {
    for (const path of ['/owners/abc', '/owners/0', '/owners/-3']) {
      const reply = await call('GET', path);
      expect(reply.status, `${path}: ${reply.text}`).toBe(404);
      expectConforms(server.current.document, 'get', '/owners/{ownerId}', reply);
    }
  });

  it('reads a pet id the parameter allows (0, negatives) as an id no pet has: 404, not "not an identifier"', async () => {
    const owner = await send(`${server.current.url}/owners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ann' }),
    });
    expect(owner.status).toBe(201);
    const ownerId = (owner.json as { id: number }).id;
    for (const petId of ['0', '-1', '-2147483648']) {
      for (const method of ['DELETE', 'GET']) {
        const reply = await call(method, `/owners/${ownerId}/pets/${petId}`);
        expect(reply.status, `${method} ${petId}: ${reply.text}`).toBe(404);
        expect(reply.text).toContain(`no pet with id ${petId}`);
      }
    }
  });

  it('still refuses a pet id beyond int32, which the parameter does not allow', async () => {
    const reply = await call('DELETE', '/owners/1/pets/2147483648');
    expect(reply.status).toBe(400);
  });
});
