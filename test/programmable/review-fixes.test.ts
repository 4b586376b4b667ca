/** Behaviours the code review found wrong, each shown right over real HTTP. */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { postPlant, plantText, send, serverFor, VALID_HEADERS } from '../support/server.js';

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const ORIGIN = 'https://some-page.example';

describe('isolation with seed plants', () => {
  const server = serverFor({ isolateByToken: true, seed: [{ id: 1n, name: 'Fern' }] });

  it('gives every tenant the seed plants', async () => {
    expect((await postPlant(server.current.url, plantText({ name: 'again', id: 1 }), as('job-a'))).json).toMatchObject({ error: 409 });
    expect(await (await server.current.storeOf('job-b')).get(1n)).toMatchObject({ name: 'Fern' });
  });
});

describe('CORS on the control API', () => {
  const open = serverFor();
  const guarded = serverFor({ adminToken: 'admin' });
  const preflight = { origin: ORIGIN, 'access-control-request-method': 'DELETE' };

  it('is off while the control API is open, so a web page cannot reset the store', async () => {
    const reply = await send(`${open.current.url}/__control/plants`, { method: 'OPTIONS', headers: preflight });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    const list = await send(`${open.current.url}/__control/plants`, { headers: { origin: ORIGIN } });
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
    // The API itself still answers browsers.
    expect((await postPlant(open.current.url, plantText({ name: 'x', id: 5 }), { ...VALID_HEADERS, origin: ORIGIN })).headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('is on when an admin token protects it', async () => {
    const reply = await send(`${guarded.current.url}/__control/plants`, { method: 'OPTIONS', headers: preflight });
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('answers a refused admin token 401 even with --auth-status 400', async () => {
    const server = await startServer({ port: 0, adminToken: 'admin', authStatus: 400 });
    try {
      expect((await send(`${server.url}/__control/health`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('client input the review found mishandled', () => {
  const server = serverFor({ logLevel: 'silent' });

  it('takes the last of repeated keys with a number beyond 2^53 (200, as JSON.parse would), not a 500', async () => {
    const reply = await postPlant(server.current.url, '{"name":"a","name":"b","id":9007199254740993}');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('{"name":"b"}');
  });

  it('never echoes an Authorization header that may be a bare token', async () => {
    for (const authorization of ['secret-token-456', 'Bearer\tsecret-token-123']) {
      const reply = await postPlant(server.current.url, plantText({ name: 'x', id: 6 }), { authorization, 'content-type': 'application/json' });
      expect(reply.json).toMatchObject({ error: 401 });
      expect(reply.text).not.toContain('secret-token');
    }
  });

  it('takes Prefer: dynamic=false as no preference: the body is validated and the plant stored', async () => {
    expect((await postPlant(server.current.url, '{"name":5}', { ...VALID_HEADERS, prefer: 'dynamic=false' })).json).toMatchObject({ error: 422 });
    expect((await postPlant(server.current.url, plantText({ name: 'kept', id: 4242 }), { ...VALID_HEADERS, prefer: 'dynamic=false' })).status).toBe(200);
    expect(await server.current.store.get(4242n)).toMatchObject({ name: 'kept' });
  });

  it('refuses 1xx status faults and sends 204 without a body', async () => {
    expect(() => server.current.faults.add({ kind: 'status', status: 103 })).toThrow(/from 200 to 599/);
    server.current.faults.add({ kind: 'status', status: 204, times: 1 });
    const reply = await postPlant(server.current.url, plantText({ name: 'x', id: 7 }));
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
  });

  it('keeps ?__proto__ a query parameter like any other', async () => {
    const reply = await send(`${server.current.url}/plants?__proto__=a&__proto__=b&constructor=x`, { method: 'POST', headers: VALID_HEADERS, body: plantText({ name: 'q', id: 8 }) });
    expect(reply.status).toBe(200);
  });

  it('finishes a request whose client left during a latency fault (it is journaled, nothing hangs)', async () => {
    server.current.journal.clear();
    server.current.faults.add({ kind: 'latency', latencyMs: 300, times: 1 });
    const leaving = request(`${server.current.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: plantText({ name: 'gone', id: 9 }), signal: AbortSignal.timeout(50) });
    await expect(leaving).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.current.journal.entries({ operation: 'createPlant' })).toHaveLength(1);
    expect(await server.current.store.get(9n)).toBeUndefined();
  });
});
