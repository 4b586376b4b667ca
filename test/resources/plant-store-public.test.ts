/**
 * The public Plant Store (spec/plant-store-public.yaml: list, create, delete by id; no operationIds)
 * served end to end over HTTP: every operation reads and writes the store, and every answer is
 * the document's.
 */
import { describe, expect, it } from 'vitest';
import { AUTH, plantText, postPlant, send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;

describe('the public Plant Store', () => {
  const server = serverFor({ spec: SPEC });
  const list = (query = '') => send(`${server.current.url}/plants${query}`, { headers: AUTH });
  const remove = (id: bigint | number) => send(`${server.current.url}/plants/${id}`, { method: 'DELETE', headers: AUTH });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('create → list shows it (limit honoured) → delete → list without it → re-create', async () => {
    const created = await postPlant(server.current.url, plantText({ name: 'Monstera deliciosa', tag: 'aroid', id: 1 }));
    expect(created.status, created.text).toBe(200);
    expect(created.text).toBe('{"name":"Monstera deliciosa","tag":"aroid"}');
    conforms('post', '/plants', created);
    for (const id of [2, 3, 4]) expect((await postPlant(server.current.url, plantText({ name: `plant ${id}`, id }))).status).toBe(200);

    const all = await list();
    expect(all.status).toBe(200);
    // The list's Plant has no id: answers are shaped by the declared schema.
    expect(all.json).toEqual([{ name: 'Monstera deliciosa', tag: 'aroid' }, { name: 'plant 2' }, { name: 'plant 3' }, { name: 'plant 4' }]);
    conforms('get', '/plants', all);
    const two = await list('?limit=2');
    expect(two.text).toBe('[{"name":"Monstera deliciosa","tag":"aroid"},{"name":"plant 2"}]');

    const deleted = await remove(1);
    expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
    conforms('delete', '/plants/{id}', deleted);
    expect(await list('?limit=2')).toMatchObject({ json: [{ name: 'plant 2' }, { name: 'plant 3' }] });

    const recreated = await postPlant(server.current.url, plantText({ name: 'Monstera again', id: 1 }));
    expect(recreated.text).toBe('{"name":"Monstera again"}');
    expect(((await list()).json as unknown[]).at(-1)).toEqual({ name: 'Monstera again' });
  });

  it('answers a negative limit, which the int32 schema allows, with an empty page rather than a refusal', async () => {
    expect((await postPlant(server.current.url, plantText({ name: 'kept', id: 77 }))).status).toBe(200);
    const none = await list('?limit=-1');
    expect(none.status, none.text).toBe(200);
    expect(none.json).toEqual([]);
    conforms('get', '/plants', none);
    expect((await remove(77)).status).toBe(204);
  });

  it('refuses a second delete, and a duplicate id, with the document’s failure response', async () => {
    await postPlant(server.current.url, plantText({ name: 'once', id: 50 }));
    expect((await remove(50)).status).toBe(204);
    const again = await remove(50);
    // The document declares 204 and 400 for DELETE: a missing plant is its declared failure.
    expect(again.status, again.text).toBe(400);
    expect(again.json).toMatchObject({ message: 'no plant with id 50' });
    conforms('delete', '/plants/{id}', again);
    await postPlant(server.current.url, plantText({ name: 'twice', id: 51 }));
    const duplicate = await postPlant(server.current.url, plantText({ name: 'twice', id: 51 }));
    expect(duplicate.status).toBe(400);
    expect(duplicate.json).toMatchObject({ error: 409, message: 'a plant with id 51 already exists; ids are unique' });
  });

  it('deletes by an int64 id beyond 2^53, exactly: its neighbour is another plant', async () => {
    const id = 9007199254740993n;
    expect((await postPlant(server.current.url, plantText({ name: 'beyond 2^53', id }))).status).toBe(200);
    expect((await postPlant(server.current.url, plantText({ name: 'its neighbour', id: id - 1n }))).status).toBe(200);
    expect((await remove(id)).status).toBe(204);
    expect((await remove(id)).status).toBe(400);
    const names = ((await list()).json as { name: string }[]).map((plant) => plant.name);
    expect(names).toContain('its neighbour');
    expect(names).not.toContain('beyond 2^53');
    expect((await remove(9223372036854775807n)).status).toBe(400);
  });

  it('refuses a path id that is no int64 in canonical decimal, storing and removing nothing', async () => {
    await postPlant(server.current.url, plantText({ name: 'seven', id: 7 }));
    const padded = await send(`${server.current.url}/plants/007`, { method: 'DELETE', headers: AUTH });
    expect(padded.status).toBe(400);
    expect(padded.json).toMatchObject({ error: 400 });
    expect(((await list()).json as { name: string }[]).map((plant) => plant.name)).toContain('seven');
  });
});

describe('the public Plant Store with --echo-id', () => {
  const server = serverFor({ spec: SPEC, echoId: true });

  it('adds the id, written exactly, to the create answer and to each listed plant', async () => {
    const id = 9007199254740993n;
    const created = await postPlant(server.current.url, plantText({ name: 'big', id }));
    expect(created.text).toBe('{"name":"big","id":9007199254740993}');
    const listed = await send(`${server.current.url}/plants`, { headers: AUTH });
    expect(listed.text).toBe('[{"name":"big","id":9007199254740993}]');
  });
});
