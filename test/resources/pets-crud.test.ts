/**
 * A document with server-assigned int64 ids, properties only the server fills, PUT, PATCH by JSON
 * Merge Patch and a nested resource (test/resources/documents/pets-crud.yaml), served end to end
 * over HTTP with the resources inferred from it.
 */
import { describe, expect, it } from 'vitest';
import { AUTH, send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('./documents/pets-crud.yaml', import.meta.url).pathname;

describe('pets with server-assigned ids', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    send(`${server.current.url}${path}`, {
      method,
      headers: body === undefined ? AUTH : { ...AUTH, 'content-type': contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);
  const idOf = (reply: Reply) => (reply.json as { id: number }).id;

  it('creates twice with distinct ids, each readable back with the properties filled at create', async () => {
    const rex = await call('POST', '/pets', { name: 'Rex', tag: 'dog' });
    const tom = await call('POST', '/pets', { name: 'Tom', tag: 'cat' });
    expect([rex.status, tom.status]).toEqual([201, 201]);
    conforms('post', '/pets', rex);
    expect(idOf(rex)).not.toBe(idOf(tom));
    const read = await call('GET', `/pets/${idOf(rex)}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(rex.json);
    conforms('get', '/pets/{petId}', read);
  });

  it('lists in creation order, filtered by tag and limited', async () => {
    for (const [name, tag] of [
      ['f1', 'fish'],
      ['b1', 'bird'],
      ['f2', 'fish'],
      ['f3', 'fish'],
    ] as const)
      await call('POST', '/pets', { name, tag });
    const fish = await call('GET', '/pets?tag=fish&limit=2');
    expect(fish.status).toBe(200);
    expect((fish.json as { name: string }[]).map((pet) => pet.name)).toEqual(['f1', 'f2']);
    conforms('get', '/pets', fish);
  });

  it('replaces, merge-patches, deletes; a deleted pet reads 404', async () => {
    const id = idOf(await call('POST', '/pets', { name: 'Max', tag: 'dog' }));
    const replaced = await call('PUT', `/pets/${id}`, { name: 'Maximilian' });
    expect(replaced.json).toMatchObject({ id, name: 'Maximilian' });
    expect(replaced.json).not.toHaveProperty('tag');
    conforms('put', '/pets/{petId}', replaced);
    const patched = await call('PATCH', `/pets/${id}`, { tag: 'good dog', status: 'sold' }, 'application/merge-patch+json');
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ id, name: 'Maximilian', tag: 'good dog', status: 'sold' });
    conforms('patch', '/pets/{petId}', patched);
    expect((await call('GET', `/pets/${id}`)).json).toEqual(patched.json);

    const deleted = await call('DELETE', `/pets/${id}`);
    expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
    const gone = await call('GET', `/pets/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain(`no pet with id ${id}`);
    expect((await call('PATCH', `/pets/${id}`, { tag: 'x' }, 'application/merge-patch+json')).status).toBe(404);
  });

  it('keeps each owner’s pets apart (a nested resource)', async () => {
    const uuid = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    expect((await call('POST', '/owners/ann/pets', { petId: uuid, name: 'Ann’s' })).status).toBe(201);
    expect((await call('POST', '/owners/bob/pets', { petId: uuid, name: 'Bob’s' })).status).toBe(201);
    const ann = await call('GET', '/owners/ann/pets');
    expect(ann.json).toEqual({ items: [{ petId: uuid, name: 'Ann’s' }], total: 1 });
    conforms('get', '/owners/{ownerId}/pets', ann);
    expect((await call('GET', `/owners/bob/pets/${uuid}`)).json).toEqual({ petId: uuid, name: 'Bob’s' });
    expect((await call('GET', `/owners/cy/pets/${uuid}`)).status).toBe(404);
    // The operation declares no failure response at all: the refusal keeps its own status.
    expect((await call('POST', '/owners/ann/pets', { petId: uuid, name: 'again' })).status).toBe(409);
  });
});
