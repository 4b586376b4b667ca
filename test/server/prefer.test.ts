/**
 * Prism's Prefer header on createPlant: a stated preference is answered from the document without
 * touching the store. A preference the document cannot meet is the client's mistake: never a 5xx.
 */
import { describe, expect, it } from 'vitest';
import { expectError, postPlant, plantText, serverFor, VALID_HEADERS } from './helpers.js';

describe('Prefer on POST /plants', () => {
  const server = serverFor();

  it('Prefer: example=monstera answers the document example and stores nothing', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'ignored', id: 1 }), { ...VALID_HEADERS, prefer: 'example=monstera' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ name: 'Monstera deliciosa', tag: 'aroid' });
    expect(server.current.store.size).toBe(0);
  });

  it('Prefer: code=400 answers the documented 400 example, an Error', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'ignored', id: 2 }), { ...VALID_HEADERS, prefer: 'code=400' });
    expectError(reply, 400, 422);
    expect(server.current.store.size).toBe(0);
  });

  it('still checks credentials first', async () => {
    expectError(await postPlant(server.current.url, plantText({ name: 'n', id: 3 }), { 'content-type': 'application/json', prefer: 'code=200' }), 400, 401);
  });

  // BUG (src/handlers/mock-operation.ts): when prism's mocker cannot meet a preference (a status the
  // document does not declare, an example it does not have) the failure is ErrorCode.internal, so the
  // client gets HTTP 500 {"error":500,"message":"no mocked answer for POST /plants: Requested status
  // code 404 is not defined in the document."}. Repro: POST /plants (valid token and body) with
  // "Prefer: code=404", or "Prefer: example=nope". It is the client's doing, not a defect: answer the
  // operation's failure status (400) with an Error naming the preference. Remove `.fails` once fixed.
  it.fails.each([
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
