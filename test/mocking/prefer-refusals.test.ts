/**
 * Prism's Prefer header on createPlant: a stated preference is answered from the document without
 * touching the store. A preference the document cannot meet is the client's mistake: never a 5xx.
 */
import { describe, expect, it } from 'vitest';
import { expectError, postPlant, plantText, serverFor, VALID_HEADERS } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

describe('Prefer on POST /plants', () => {
  const server = serverFor();

  it('Prefer: example=monstera answers the document example and stores nothing', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'ignored', id: 1 }), { ...VALID_HEADERS, prefer: 'example=monstera' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ name: 'Monstera deliciosa', tag: 'aroid' });
    expect(await (await storedPlants(server.current)).count()).toBe(0);
  });

  it('Prefer: code=400 answers the documented 400 example, an Error', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'ignored', id: 2 }), { ...VALID_HEADERS, prefer: 'code=400' });
    expectError(reply, 400, 422);
    expect(await (await storedPlants(server.current)).count()).toBe(0);
  });

  it('still checks credentials first', async () => {
    expectError(await postPlant(server.current.url, plantText({ name: 'n', id: 3 }), { 'content-type': 'application/json', prefer: 'code=200' }), 400, 401);
  });

  it.each([
    ['code=404 (not declared)', 'code=404'],
    ['code=500 (not declared)', 'code=500'],
    ['example=nope (no such example)', 'example=nope'],
  ])('Prefer: %s is refused with 400 and an Error, not a 5xx', async (_label, prefer) => {
    const reply = await postPlant(server.current.url, plantText({ name: 'n', id: 4 }), { ...VALID_HEADERS, prefer });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ error: expect.any(Number), message: expect.any(String) });
    const { error } = reply.json as { error: number };
    expect(error >= 400 && error < 500).toBe(true);
  });
});
