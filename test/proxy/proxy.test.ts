/**
 * serve --proxy URL over real HTTP: a node:http server stands for the real implementation; the
 * stand-in forwards to it, answers with its answer unchanged, and its journal names every
 * violation. --proxy-strict answers a violating answer with a 502 Error; an unreachable server is
 * a 502 Error too, never a crash.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { postPlant, send, serverFor, VALID_HEADERS } from '../support/server.js';
import { proxyingServerFor, upstreamFor } from './upstream.js';

interface Violation {
  readonly side: string;
  readonly check: string;
  readonly message: string;
}

async function lastEntry(url: string): Promise<{ status: number; violations?: Violation[]; response: { body: string } }> {
  const entries = (await send(`${url}/__control/journal`)).json as Array<{ status: number; violations?: Violation[]; response: { body: string } }>;
  const entry = entries.at(-1);
  if (!entry) throw new Error('the journal is empty');
  return entry;
}

const NULL_TAG = '{"name":"x","tag":null}';

describe('serve --proxy', () => {
  const upstream = upstreamFor();
  const server = proxyingServerFor(upstream);
  beforeEach(() => {
    upstream.received.length = 0;
    upstream.reply = { status: 200, type: 'application/json', body: NULL_TAG };
  });

  it("answers with the real server's answer unchanged, and the journal names the response's violation", async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(NULL_TAG);
    expect(reply.headers['x-upstream']).toBe('yes');
    const entry = await lastEntry(server.current.url);
    expect(entry.status).toBe(200);
    expect(entry.violations).toEqual([{ side: 'response', check: 'schema', message: 'Response body property tag must be string' }]);
  });

  it('forwards the body bytes exactly: an id above 2^53 reaches the server digit for digit', async () => {
    const body = '{"name":"Golden barrel cactus", "id":9007199254740993}';
    await postPlant(server.current.url, body, { ...VALID_HEADERS, 'x-trace': 'abc' });
    expect(upstream.received).toHaveLength(1);
    const [received] = upstream.received;
    expect(received?.body.toString('utf8')).toBe(body);
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/plants');
    expect(received?.headers.authorization).toBe(VALID_HEADERS.authorization);
    expect(received?.headers['x-trace']).toBe('abc');
    // Host is the target's, not the stand-in's.
    expect(received?.headers.host).toBe(new URL(upstream.url()).host);
  });

  it('forwards an invalid request and records the request violation', async () => {
    upstream.reply = { status: 200, type: 'application/json', body: '{"name":"x"}' };
    const reply = await postPlant(server.current.url, '{"tag":"no name","id":2}');
    expect(reply.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
    const entry = await lastEntry(server.current.url);
    expect(entry.violations).toEqual([{ side: 'request', check: 'request', message: expect.stringContaining('name') }]);
  });

  it('names an undeclared status as a violation', async () => {
    upstream.reply = { status: 418, type: 'text/plain', body: 'teapot' };
    const reply = await postPlant(server.current.url, '{"name":"x","id":3}');
    expect({ status: reply.status, text: reply.text }).toEqual({ status: 418, text: 'teapot' });
    const entry = await lastEntry(server.current.url);
    expect(entry.violations).toEqual([{ side: 'response', check: 'status', message: expect.stringContaining('418') }]);
  });

  it('has no violations for a conforming exchange', async () => {
    upstream.reply = { status: 200, type: 'application/json', body: '{"name":"x","tag":"y"}' };
    const reply = await postPlant(server.current.url, '{"name":"x","id":4}');
    expect(reply.text).toBe('{"name":"x","tag":"y"}');
    expect(upstream.received).toHaveLength(1);
    const entry = await lastEntry(server.current.url);
    expect(entry.violations).toBeUndefined();
  });
});

describe('serve --proxy --proxy-strict', () => {
  const upstream = upstreamFor();
  const server = proxyingServerFor(upstream, {
    proxyStrict: true,
  });
  beforeEach(() => {
    upstream.received.length = 0;
    upstream.reply = { status: 200, type: 'application/json', body: NULL_TAG };
  });

  it('answers a violating answer with a 502 Error naming the violation', async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}');
    expect(reply.status).toBe(502);
    expect(reply.json).toEqual({ error: 502, message: expect.stringMatching(/tag.*string/) });
    const entry = await lastEntry(server.current.url);
    expect(entry.violations).toEqual([{ side: 'response', check: 'schema', message: expect.stringMatching(/tag/) }]);
  });

  it('refuses an invalid request without forwarding it', async () => {
    const reply = await postPlant(server.current.url, '{"tag":"no name","id":2}');
    expect(reply.status).toBe(400);
    expect(upstream.received).toHaveLength(0);
  });
});

describe('serve --proxy with a fault', () => {
  const upstream = upstreamFor();
  const server = proxyingServerFor(upstream, {
    faults: [{ kind: 'status', operation: 'createPlant', status: 503, times: 1 }],
  });

  it('answers the fault before forwarding, then forwards again', async () => {
    const faulted = await postPlant(server.current.url, '{"name":"x","id":1}');
    expect(faulted.status).toBe(503);
    expect(upstream.received).toHaveLength(0);
    const forwarded = await postPlant(server.current.url, '{"name":"x","id":1}');
    expect({ status: forwarded.status, text: forwarded.text }).toEqual({ status: 200, text: NULL_TAG });
    expect(upstream.received).toHaveLength(1);
  });
});

describe('serve --proxy to a server that does not answer', () => {
  const server = serverFor({ proxy: 'http://127.0.0.1:1' });

  it('answers 502 naming the server, and goes on serving', async () => {
    const reply = await postPlant(server.current.url, '{"name":"x","id":1}');
    expect(reply.status).toBe(502);
    expect(reply.json).toEqual({ error: 502, message: expect.stringContaining('http://127.0.0.1:1') });
    expect((await postPlant(server.current.url, '{"name":"x","id":1}')).status).toBe(502);
  });
});
