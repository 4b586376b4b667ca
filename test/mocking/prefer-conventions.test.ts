import { describe, expect, it } from 'vitest';
import { postPlant, serverFor, plantText, VALID_HEADERS } from '../support/server.js';
import { readPrefer } from '../../src/http/prefer.js';
import { storedPlants } from '../support/plants.js';

describe('Prefer (Prism conventions)', () => {
  const server = serverFor();

  it('Prefer: code=400 answers the documented failure without touching the store', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'Fern', id: 1 }), { ...VALID_HEADERS, prefer: 'code=400' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: expect.any(Number), message: expect.any(String) });
    expect(await (await storedPlants(server.current)).get(1n)).toBeUndefined();
  });

  it('Prefer: example=NAME picks the named example of the declared answer', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'Fern', id: 2 }), { ...VALID_HEADERS, prefer: 'code=400, example=duplicateId' });
    expect(reply.json).toEqual({ error: 409, message: 'a plant with id 1 already exists; ids are unique' });
    expect(await (await storedPlants(server.current)).get(2n)).toBeUndefined();
  });

  it('Prefer: dynamic=true generates an answer from the schema', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'Fern', id: 3 }), { ...VALID_HEADERS, prefer: 'dynamic=true' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ name: expect.any(String) });
    expect(await (await storedPlants(server.current)).get(3n)).toBeUndefined();
  });

  it('without Prefer the store answers', async () => {
    expect((await postPlant(server.current.url, plantText({ name: 'Fern', id: 4 }))).json).toEqual({ name: 'Fern' });
    expect(await (await storedPlants(server.current)).get(4n)).toMatchObject({ name: 'Fern' });
  });

  it('takes Prefer: dynamic=false as no preference: the body is validated and the plant stored', async () => {
    expect((await postPlant(server.current.url, '{"name":5}', { ...VALID_HEADERS, prefer: 'dynamic=false' })).json).toMatchObject({ error: 422 });
    expect((await postPlant(server.current.url, plantText({ name: 'kept', id: 4242 }), { ...VALID_HEADERS, prefer: 'dynamic=false' })).status).toBe(200);
    expect(await (await storedPlants(server.current)).get(4242n)).toMatchObject({ name: 'kept' });
  });

  it('reads the header as Prism does', () => {
    expect(readPrefer(undefined)).toEqual({ ok: true, preferences: undefined });
    expect(readPrefer('respond-async, return=minimal')).toEqual({ ok: true, preferences: undefined });
    expect(readPrefer('code=404, example="a b"; dynamic=true')).toEqual({ ok: true, preferences: { code: 404, example: 'a b', dynamic: true } });
    expect(readPrefer('code=4040')).toMatchObject({ ok: false, problem: expect.stringContaining('"4040"') });
  });
});
