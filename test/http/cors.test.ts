/**
 * CORS: a browser app on another origin (a dev server on localhost:5173) can call the stand-in.
 * The control API answers browsers only when an admin token protects it.
 */
import { describe, expect, it } from 'vitest';
import { expectCreated, expectError, idSequence, JSON_TYPE, postPlant, plantText, send, serverFor, VALID_HEADERS, type Reply } from '../support/server.js';

const ORIGIN = 'http://localhost:5173';
const nextId = idSequence(80_000n);

function preflight(url: string): Promise<Reply> {
  return send(`${url}/plants`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
}

function corsHeaderNames(reply: Reply): string[] {
  return Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'));
}

describe('CORS on (the default)', () => {
  const server = serverFor();

  it('echoes the Origin on a cross-origin POST, with Vary: Origin', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'cors', id: nextId() }), { ...VALID_HEADERS, origin: ORIGIN });
    expectCreated(reply, { name: 'cors' });
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(reply.headers['access-control-allow-credentials']).toBe('true');
    expect(reply.headers.vary).toContain('Origin');
  });

  it('lets the browser read an error: a refused request carries the CORS headers and exposes WWW-Authenticate', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'cors', id: nextId() }), { ...JSON_TYPE, origin: ORIGIN });
    expectError(reply, 400, 401);
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(reply.headers['access-control-expose-headers']?.toLowerCase()).toContain('www-authenticate');
  });

  it('answers a preflight with 204, allowing POST and the requested headers, without credentials', async () => {
    const reply = await preflight(server.current.url);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(reply.headers['access-control-allow-methods']?.split(/,\s*/)).toContain('POST');
    const allowed = (reply.headers['access-control-allow-headers'] ?? '').toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(Number(reply.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('answers a preflight for an unknown path like a known one, so the browser then sees the readable 404', async () => {
    const headers = { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    const reply = await send(`${server.current.url}/nowhere`, { method: 'OPTIONS', headers });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(reply.headers['access-control-allow-methods']?.split(/,\s*/)).toContain('POST');
    expect(reply.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const real = await postPlant(server.current.url, plantText({ name: 'lost', id: nextId() }), { ...VALID_HEADERS, origin: ORIGIN }, '/nowhere');
    expect(expectError(real, 404, 404)).toContain('/nowhere');
    expect(real.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('adds no CORS headers to a same-origin request (no Origin header)', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'same origin', id: nextId() }));
    expectCreated(reply, { name: 'same origin' });
    expect(corsHeaderNames(reply)).toEqual([]);
  });
});

describe('cors: false', () => {
  const server = serverFor({ cors: false });

  it('adds no CORS headers to a cross-origin POST', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'no cors', id: nextId() }), { ...VALID_HEADERS, origin: ORIGIN });
    expectCreated(reply, { name: 'no cors' });
    expect(corsHeaderNames(reply)).toEqual([]);
  });

  it('does not answer a preflight as one: no CORS headers', async () => {
    const reply = await preflight(server.current.url);
    expect(reply.status).toBe(204);
    expect(corsHeaderNames(reply)).toEqual([]);
  });
});

describe('CORS on the control API', () => {
  const PAGE_ORIGIN = 'https://some-page.example';
  const open = serverFor();
  const guarded = serverFor({ adminToken: 'admin' });
  const controlPreflight = { origin: PAGE_ORIGIN, 'access-control-request-method': 'DELETE' };

  it('is off while the control API is open, so a web page cannot reset the store', async () => {
    const reply = await send(`${open.current.url}/__control/plants`, { method: 'OPTIONS', headers: controlPreflight });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    const list = await send(`${open.current.url}/__control/plants`, { headers: { origin: PAGE_ORIGIN } });
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
    // The API itself still answers browsers.
    expect(
      (await postPlant(open.current.url, plantText({ name: 'x', id: 5 }), { ...VALID_HEADERS, origin: PAGE_ORIGIN })).headers['access-control-allow-origin'],
    ).toBe(PAGE_ORIGIN);
  });

  it('is on when an admin token protects it', async () => {
    const reply = await send(`${guarded.current.url}/__control/plants`, { method: 'OPTIONS', headers: controlPreflight });
    expect(reply.headers['access-control-allow-origin']).toBe(PAGE_ORIGIN);
  });
});
