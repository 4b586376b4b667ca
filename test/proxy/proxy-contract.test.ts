/**
 * serve --proxy holds the real implementation to the whole contract, over real HTTP: bodies travel
 * as bytes (an image, a non-UTF-8 byte, both ways), declared response headers are checked, the
 * credentials the document demands are checked (and never written in clear), and with
 * --isolate-by-token the journal names each request's tenant.
 */
import { request } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import { tenantOfToken } from '../../src/store/tenants.js';
import { expectError, JSON_TYPE, postPlant, send, VALID_HEADERS } from '../support/server.js';
import { proxyingServerFor, upstreamFor } from './upstream.js';

interface Violation {
  readonly side: string;
  readonly check: string;
  readonly message: string;
}
interface Entry {
  readonly status: number;
  readonly tenant: string;
  readonly violations?: Violation[];
}

async function journal(url: string, query = '', headers: Record<string, string> = {}): Promise<{ entries: Entry[]; text: string }> {
  const reply = await send(`${url}/__control/journal${query}`, { headers });
  return { entries: reply.json as Entry[], text: reply.text };
}

async function lastEntry(url: string): Promise<Entry> {
  const entry = (await journal(url)).entries.at(-1);
  if (!entry) throw new Error('the journal is empty');
  return entry;
}

/** Sends raw bytes and reads the answer as bytes (the suite's `send` reads text). */
async function exchangeBytes(url: string, method: string, headers: Record<string, string>, body?: Buffer) {
  const answer = await request(url, { method: method as 'GET', headers, body: body ?? null, headersTimeout: 10_000, bodyTimeout: 10_000 });
  return { status: answer.statusCode, headers: answer.headers, body: Buffer.from(await answer.body.arrayBuffer()) };
}

const BEARER = { type: 'http', scheme: 'bearer' };
/** A photo API: binary bodies both ways, and a response header the document requires. */
const PHOTOS = {
  openapi: '3.0.3',
  info: { title: 'Photos', version: '1.0.0' },
  components: { securitySchemes: { bearer: BEARER } },
  security: [{ bearer: [] }],
  paths: {
    '/photos/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: {
        operationId: 'getPhoto',
        responses: {
          '200': {
            description: 'the photo',
            headers: {
              'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 0 } },
              'X-Photographer': { schema: { type: 'string', maxLength: 8 } },
            },
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
      put: {
        operationId: 'putPhoto',
        requestBody: { required: true, content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
        responses: { '200': { description: 'stored', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
  },
};

/** A PNG signature, then bytes that are not UTF-8 (0xff, 0xfe, a lone continuation byte 0x80). */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]);
const AUTH = { authorization: 'Bearer photo-token' };

describe('serve --proxy with binary bodies and declared response headers', () => {
  const upstream = upstreamFor();
  const server = proxyingServerFor(upstream, {
    spec: PHOTOS,
  });
  beforeEach(() => {
    upstream.received.length = 0;
    upstream.reply = { status: 200, type: 'image/png', body: PNG, headers: { 'x-rate-limit': '99' } };
  });

  it('forwards a binary request body and passes a binary answer back byte for byte', async () => {
    const sent = Buffer.concat([PNG, Buffer.from([0xfd])]);
    upstream.reply = { status: 200, type: 'application/octet-stream', body: PNG };
    const reply = await exchangeBytes(`${server.current.url}/photos/1`, 'PUT', { ...AUTH, 'content-type': 'image/png' }, sent);
    expect(upstream.received.map((received) => received.body.toString('hex'))).toEqual([sent.toString('hex')]);
    expect(reply.status).toBe(200);
    expect(reply.body.toString('hex')).toBe(PNG.toString('hex'));
    expect(reply.headers['content-length']).toBe(String(PNG.length));
    expect((await lastEntry(server.current.url)).violations).toBeUndefined();
  });

  it('has no violation when the declared headers are there and fit their schemas', async () => {
    const reply = await exchangeBytes(`${server.current.url}/photos/1`, 'GET', AUTH);
    expect(reply.body.toString('hex')).toBe(PNG.toString('hex'));
    expect((await lastEntry(server.current.url)).violations).toBeUndefined();
  });

  it('names a missing required response header, and still passes the answer on', async () => {
    upstream.reply = { status: 200, type: 'image/png', body: PNG };
    const reply = await exchangeBytes(`${server.current.url}/photos/1`, 'GET', AUTH);
    expect(reply.status).toBe(200);
    expect(reply.body.toString('hex')).toBe(PNG.toString('hex'));
    expect((await lastEntry(server.current.url)).violations).toEqual([
      { side: 'response', check: 'header', message: "Response header must have required property 'x-rate-limit'" },
    ]);
  });

  it('names a header that does not fit its schema', async () => {
    upstream.reply = { status: 200, type: 'image/png', body: PNG, headers: { 'x-rate-limit': 'lots', 'x-photographer': 'much-too-long' } };
    await exchangeBytes(`${server.current.url}/photos/1`, 'GET', AUTH);
    const violations = (await lastEntry(server.current.url)).violations ?? [];
    expect(violations.map((violation) => [violation.side, violation.check])).toEqual([
      ['response', 'header'],
      ['response', 'header'],
    ]);
    expect(violations.map((violation) => violation.message).join('\n')).toMatch(
      /x-rate-limit must be integer[\s\S]*x-photographer must NOT have more than 8 characters/,
    );
  });
});

describe('serve --proxy --proxy-strict with declared response headers', () => {
  const upstream = upstreamFor({ status: 200, type: 'image/png', body: PNG });
  const server = proxyingServerFor(upstream, {
    spec: PHOTOS,
    proxyStrict: true,
  });

  it('answers an answer missing a required header with a 502 Error naming it', async () => {
    const reply = await send(`${server.current.url}/photos/1`, { headers: AUTH });
    expect(expectError(reply, 502, 502)).toContain("header: Response header must have required property 'x-rate-limit'");
  });
});

describe('serve --proxy checks the credentials the document demands', () => {
  const upstream = upstreamFor({ status: 200, type: 'application/json', body: '{"name":"x"}' });
  const lines: string[] = [];
  const server = proxyingServerFor(upstream, {
    logLevel: 'debug',
    log: (line) => lines.push(line),
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  it('forwards a request without a token and names the missing credential', async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}', JSON_TYPE);
    expect(reply.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
    expect((await lastEntry(server.current.url)).violations).toEqual([
      { side: 'request', check: 'auth', message: expect.stringContaining('missing Authorization header') },
    ]);
  });

  it('names a credential of the wrong kind without ever writing it to the journal or the log', async () => {
    const secret = 'Token sekrit-credential-77';
    await postPlant(server.current.url, '{"name":"x","id":2}', { ...JSON_TYPE, authorization: secret });
    expect(upstream.received.map((received) => received.headers.authorization)).toEqual([secret]);
    const { entries, text } = await journal(server.current.url);
    expect(entries.at(-1)?.violations).toEqual([{ side: 'request', check: 'auth', message: expect.stringContaining('Authorization header') }]);
    expect(text).not.toContain('sekrit');
    expect(lines.join('\n')).not.toContain('sekrit');
  });

  it('has no auth violation for a request with a bearer token', async () => {
    await postPlant(server.current.url, '{"name":"x","id":3}', VALID_HEADERS);
    expect((await lastEntry(server.current.url)).violations).toBeUndefined();
  });
});

describe('serve --proxy --proxy-strict refuses missing credentials', () => {
  const upstream = upstreamFor({ status: 200, type: 'application/json', body: '{"name":"x"}' });
  const server = proxyingServerFor(upstream, {
    proxyStrict: true,
  });

  it('refuses as the stand-in does (the Plant Store declares 400 for it), with the challenge, and forwards nothing', async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}', JSON_TYPE);
    expect(expectError(reply, 400, 401)).toContain('Authorization');
    expect(reply.headers['www-authenticate']).toContain('Bearer');
    expect(upstream.received).toHaveLength(0);
    const forwarded = await postPlant(server.current.url, '{"name":"x","id":1}', VALID_HEADERS);
    expect(forwarded.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
  });
});

describe('serve --proxy leaves Prefer to the real server', () => {
  const upstream = upstreamFor({ status: 200, type: 'application/json', body: '{"name":"x"}' });
  const server = proxyingServerFor(upstream, {
    proxyStrict: true,
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  it('forwards a Prefer the stand-in would refuse, unread', async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}', { ...VALID_HEADERS, prefer: 'code=abc, return=minimal' });
    expect(reply.status).toBe(200);
    expect(upstream.received.map((received) => received.headers.prefer)).toEqual(['code=abc, return=minimal']);
  });

  it('does not let a Prefer header carry an invalid request past --proxy-strict', async () => {
    const reply = await postPlant(server.current.url, '{"tag":"no name","id":2}', { ...VALID_HEADERS, prefer: 'code=200' });
    expect(reply.status).toBe(400);
    expect(upstream.received).toHaveLength(0);
  });
});

describe('serve --proxy --isolate-by-token', () => {
  const upstream = upstreamFor({ status: 200, type: 'application/json', body: '{"name":"x"}' });
  const server = proxyingServerFor(upstream, {
    isolateByToken: true,
  });
  const alice = tenantOfToken('alice-proxy-token');
  const bob = tenantOfToken('bob-proxy-token');

  it('journals each request under its tenant: the admin view, ?tenant= and a tenant its own', async () => {
    await postPlant(server.current.url, '{"name":"a","id":1}', { ...JSON_TYPE, authorization: 'Bearer alice-proxy-token' });
    await postPlant(server.current.url, '{"name":"b","id":1}', { ...JSON_TYPE, authorization: 'Bearer bob-proxy-token' });
    expect(upstream.received).toHaveLength(2);
    const all = await journal(server.current.url);
    expect(all.entries.map((entry) => entry.tenant)).toEqual([alice, bob]);
    expect(all.text).not.toContain('proxy-token');
    expect((await journal(server.current.url, `?tenant=${bob}`)).entries.map((entry) => entry.tenant)).toEqual([bob]);
    const own = await journal(server.current.url, '', { 'plantstore-token': 'alice-proxy-token' });
    expect(own.entries.map((entry) => entry.tenant)).toEqual([alice]);
  });
});
