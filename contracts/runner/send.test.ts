/** Sending one case: valid cases stay within the size common servers accept; --header and secrets as the wire sees them. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/json/exact-json.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { createClient, type HttpClient } from '../client/http-client.js';
import type { RequestCase } from './case-source.js';
import { cryptoRandom64 } from './ids.js';
import { headBytes, headBytesOver, send, withExtraHeaders, withId, type RunEnv } from './send.js';

let server: Server;
let client: HttpClient;
let seen: Array<{ url: string; headers: Record<string, unknown> }>;
beforeAll(async () => {
  seen = [];
  // Node's own limit on the request head (16 KiB): beyond it Node answers 431 by itself.
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
    connections: 1,
    timeoutMs: 2_000,
    secrets: [{ variable: 'API_KEY', value: 'k&y secret' }],
  });
});
afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function envWith(unsendable: string[], extra?: RunEnv['extraHeaders']): Promise<RunEnv> {
  const [operation] = (await loadDocument()).operations;
  if (operation === undefined) throw new Error('no operation');
  return {
    client,
    operation,
    random: cryptoRandom64,
    onSent: () => undefined,
    onUnsendable: (reason) => unsendable.push(reason),
    ...(extra ? { extraHeaders: extra } : {}),
  };
}

const longPath = `/plants?q=${'a'.repeat(20_000)}`;

describe('send', () => {
  it('does not send a valid case whose URL and headers exceed 8 KiB (a 431 would be no fault of the target)', async () => {
    const unsendable: string[] = [];
    const env = await envWith(unsendable);
    const valid: RequestCase = { kind: 'valid', target: 'body', method: 'POST', path: longPath, headers: {}, body: '{}' };
    expect(await send(env, valid, { role: 'create', kind: 'valid', target: 'body' }, 'valid')).toBeUndefined();
    expect(unsendable.join()).toMatch(/exceed the 8192 bytes common servers accept/);
    // An invalid case may test limits on purpose: it is sent, and Node refuses it for its size.
    const invalid: RequestCase = { ...valid, kind: 'invalid', breaks: 'too long' };
    const exchange = await send(env, invalid, { role: 'reject', kind: 'invalid', target: 'body' }, 'invalid');
    expect(exchange?.response.status).toBe(431);
  });

  it('fills secret variables in on the wire only, and adds --header ones (left off by cases about credentials)', async () => {
    seen = [];
    const env = await envWith([], { headers: { 'x-api-key': '$API_KEY', 'x-trace': 't1' }, credentialNames: new Set(['x-api-key', 'authorization']) });
    const valid: RequestCase = { kind: 'valid', target: 'body', method: 'POST', path: '/plants?api_key=%24API_KEY', headers: {}, body: '{}' };
    const exchange = await send(env, valid, { role: 'create', kind: 'valid', target: 'body' }, 'valid');
    expect(exchange?.request.url).toMatch(/api_key=%24API_KEY$/);
    expect(exchange?.request.headers['x-api-key']).toBe('$API_KEY');
    expect(seen[0]?.url).toBe(`/plants?api_key=${encodeURIComponent('k&y secret')}`);
    expect(seen[0]?.headers['x-api-key']).toBe('k&y secret');
    const auth: RequestCase = { ...valid, kind: 'invalid', target: 'auth', breaks: 'auth: no credentials', path: '/plants' };
    expect(withExtraHeaders(auth, env.extraHeaders)).toEqual({ 'x-trace': 't1' });
  });
});

describe('withId', () => {
  const bodyCase = (payload: Record<string, unknown>): RequestCase => ({
    kind: 'valid',
    target: 'body',
    method: 'PUT',
    path: '/tickets/00000000-0000-1000-8000-000000000000',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    payload: payload as JsonValue,
  });

  it('puts a fresh integer id in place of an integer one', () => {
    expect(withId(bodyCase({ id: 7, name: 'Fern' }), 9n)?.body).toBe('{"id":9,"name":"Fern"}');
  });

  it('leaves a string id (a uuid) alone: a fresh integer there would make a valid request invalid', () => {
    expect(withId(bodyCase({ id: '00000000-0000-1000-8000-000000000001', title: '' }), 2415790381921525090n)).toBeUndefined();
  });
});

describe('headBytesOver', () => {
  it('says what counting the bytes says, for any URL and headers (ASCII, accents, emoji) around the limit', () => {
    // Runs of one character: 1, 2 or 4 bytes of UTF-8 for 1 or 2 code units, long enough to cross any limit.
    const text = fc.tuple(fc.constantFrom('a', 'é', '🌱', '%20'), fc.nat({ max: 3000 })).map(([unit, count]) => unit.repeat(count));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.tuple(fc.constantFrom('x-a', 'x-b', 'x-c'), text), { maxLength: 3 }),
        fc.integer({ min: 100, max: 8192 }),
        (path, pairs, limit) => {
          const request = { method: 'POST', url: `http://127.0.0.1:4010/${path}`, headers: Object.fromEntries(pairs) };
          const bytes = headBytes(request);
          expect(headBytesOver(request, limit)).toBe(bytes > limit ? bytes : undefined);
        },
      ),
    );
  });
});
