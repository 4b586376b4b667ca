/**
 * The OpenAPI Initiative's petstore-expanded (test/fixtures/documents/petstore-expanded.yaml):
 * server-assigned int64 ids (a NewPet in, a Pet with a required id out), a `tags` array filter,
 * and errors declared only as `default` {code, message}. Served over HTTP from what is inferred.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/petstore-expanded.yaml', import.meta.url).pathname;

describe('petstore-expanded', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);
  const idOf = (reply: Reply) => (reply.json as { id: number }).id;

  it('creates twice with distinct ids, each readable back by GET /pets/{id}', async () => {
    const rex = await call('POST', '/pets', { name: 'Rex', tag: 'dog' });
    const tom = await call('POST', '/pets', { name: 'Tom' });
    expect([rex.status, tom.status]).toEqual([200, 200]);
    conforms('post', '/pets', rex);
    expect(rex.json).toEqual({ name: 'Rex', tag: 'dog', id: expect.any(Number) });
    expect(idOf(rex)).not.toBe(idOf(tom));
    for (const created of [rex, tom]) {
      const read = await call('GET', `/pets/${idOf(created)}`);
      expect(read.json).toEqual(created.json);
      conforms('get', '/pets/{id}', read);
    }
  });

  it('deletes: 204, then GET answers the document’s Error {code, message} for a missing pet', async () => {
    const id = idOf(await call('POST', '/pets', { name: 'Gone' }));
    const deleted = await call('DELETE', `/pets/${id}`);
    expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
    const missing = await call('GET', `/pets/${id}`);
    // Errors are declared as `default`, which covers 404.
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 404, message: `no pet with id ${id}` });
    conforms('get', '/pets/{id}', missing);
    const again = await call('DELETE', `/pets/${id}`);
    expect(again.status).toBe(404);
    conforms('delete', '/pets/{id}', again);
  });

  it('filters the list by tag (one or several) and honours limit', async () => {
    for (const [name, tag] of [
      ['Nemo', 'fish'],
      ['Tweety', 'bird'],
      ['Dory', 'fish'],
      ['Bubbles', 'fish'],
    ])
      await call('POST', '/pets', { name, tag });
    const names = (reply: Reply) => (reply.json as { name: string }[]).map((pet) => pet.name);
    const fish = await call('GET', '/pets?tags=fish&limit=2');
    expect(names(fish)).toEqual(['Nemo', 'Dory']);
    conforms('get', '/pets', fish);
    expect(names(await call('GET', '/pets?tags=fish&tags=bird'))).toEqual(['Nemo', 'Tweety', 'Dory', 'Bubbles']);
    expect(names(await call('GET', '/pets?tags=bird&tags=fish&limit=2'))).toEqual(['Nemo', 'Tweety']);
    expect(names(await call('GET', '/pets?tags=cat'))).toEqual([]);
  });
});
