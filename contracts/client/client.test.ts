import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SentRequest } from '../report.js';
import { classifyError } from './classify-error.js';
import { toCurl, shellQuote, withoutToken } from './curl.js';
import { createClient, urlOn } from './http-client.js';

const run = promisify(execFile);
const hasCurl = await run('which', ['curl']).then(
  () => true,
  () => false,
);

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** Answers 200 to everything and remembers what it got, so curl and undici can be compared byte for byte. */
async function startEcho(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/hang') return; // never answered
      if (req.url === '/drop') {
        req.socket.destroy();
        return;
      }
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":'); // the rest never comes
        return;
      }
      if (req.url === '/bytes') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(Buffer.from([0xef, 0xbb, 0xbf, 0x22, 0xff, 0x22])); // a BOM, then "<invalid byte>"
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-twice': ['a', 'b'], ['__proto__']: ['p', 'q'] });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

let echo: Awaited<ReturnType<typeof startEcho>>;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  echo.server.closeAllConnections();
  await new Promise((resolve) => echo.server.close(resolve));
});

function request(path: string, body: string | undefined, headers: Record<string, string>): SentRequest {
  return { method: 'POST', url: urlOn(echo.url, path), headers, ...(body === undefined ? {} : { body }), label: 'test' };
}

describe('sending', () => {
  it('returns status, lower-cased headers (repeated ones joined) and the body text', async () => {
    const client = createClient(echo.url, { connections: 2, timeoutMs: 2_000 });
    try {
      const response = await client.send(request('/plants', '{"name":"a"}', { 'content-type': 'application/json' }));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['x-twice']).toBe('a, b');
      // A header named __proto__ is an own property like any other, and the headers' prototype is untouched.
      expect(Object.getOwnPropertyDescriptor(response.headers, '__proto__')?.value).toBe('p, q');
      expect(Object.getPrototypeOf(response.headers)).toBe(Object.prototype);
      expect(response.body).toBe('{"ok":true}');
      expect(response.error).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('classifies a target that never answers as a timeout', async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 200 });
    try {
      const response = await client.send(request('/hang', '{}', {}));
      expect(response.status).toBeUndefined();
      expect(response.error?.kind).toBe('timeout');
      expect(response.durationMs).toBeGreaterThanOrEqual(150);
    } finally {
      await client.close();
    }
  });

  it('times out a request still queued behind a busy connection, on time', async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 5_000 });
    try {
      const hanging = client.send(request('/hang', '{}', {}));
      const queued = await client.send(request('/plants', '{}', {}), { timeoutMs: 200 });
      expect(queued.error?.kind).toBe('timeout');
      expect(queued.durationMs).toBeLessThan(2_000);
      await client.close();
      await hanging;
    } finally {
      await client.close();
    }
  });

  it('classifies an answer whose body stalls as a timeout', async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 200 });
    try {
      const response = await client.send(request('/stall', '{}', {}));
      expect(response.error?.kind).toBe('timeout');
      expect(response.status).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('reads the body as UTF-8 (an invalid byte replaced, a leading BOM dropped, as fetch does)', async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 2_000 });
    try {
      expect((await client.send(request('/bytes', '{}', {}))).body).toBe('"\ufffd"');
    } finally {
      await client.close();
    }
  });

  it("refuses to send what no HTTP request can carry, as the suite's own problem", async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 2_000 });
    try {
      await expect(client.send(request('/plants', '{}', { 'x-bad': 'a\r\nb' }))).rejects.toThrow(/test: /);
      expect((await client.send(request('/plants', '{}', {}))).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('classifies a dropped connection as a connection error', async () => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 2_000 });
    try {
      const response = await client.send(request('/drop', '', {}));
      expect(response.error?.kind).toBe('connection');
      // The pool recovers: the next request gets a fresh connection.
      expect((await client.send(request('/plants', '{}', {}))).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('classifies a refused connection as a connection error', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = createClient(`http://127.0.0.1:${port}`, { connections: 1, timeoutMs: 2_000 });
    try {
      const response = await client.send({ method: 'POST', url: `http://127.0.0.1:${port}/plants`, headers: {}, label: 'x' });
      expect(response.error?.kind).toBe('connection');
      expect(response.error?.message).toMatch(/ECONNREFUSED/);
    } finally {
      await client.close();
    }
  });

  it('classifies garbage instead of HTTP as a connection error', async () => {
    const garbage: TcpServer = createTcpServer((socket) => {
      socket.resume();
      socket.end('this is not HTTP\r\n\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    const client = createClient(url, { connections: 1, timeoutMs: 2_000 });
    try {
      const response = await client.send({ method: 'POST', url: `${url}/plants`, headers: {}, body: '{}', label: 'x' });
      expect(response.error?.kind).toBe('connection');
    } finally {
      await client.close();
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it('keeps a base path of the target', () => {
    expect(urlOn('http://h:1/api/', '/plants')).toBe('http://h:1/api/plants');
    expect(urlOn('http://h:1', 'plants')).toBe('http://h:1/plants');
  });

  it('classifies timeouts, resets and invalid requests by code, also when wrapped', () => {
    expect(classifyError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' })).kind).toBe('timeout');
    expect(classifyError(Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET', cause: { code: 'ECONNRESET' } })).kind).toBe('connection');
    expect(classifyError(Object.assign(new Error('x'), { cause: Object.assign(new Error('y'), { code: 'ECONNRESET' }) })).message).toMatch(/ECONNRESET/);
    expect(classifyError(Object.assign(new Error('bad header'), { code: 'UND_ERR_INVALID_ARG' })).kind).toBe('unsendable');
  });
});

describe('toCurl', () => {
  it('single-quotes plain text and escapes single quotes', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('a\nb')).toBe(`$'a\\x0ab'`);
    const curl = toCurl({ method: 'POST', url: 'http://h/plants', headers: { authorization: 'Bearer t' }, body: '{"name":"O\'Neil"}' });
    expect(curl).toBe(`curl -sS -i -X 'POST' 'http://h/plants' -H 'authorization: Bearer t' -H 'Content-Type:' --data-binary '{"name":"O'\\''Neil"}'`);
  });

  const bodies: Array<[string, string | undefined, Record<string, string>]> = [
    ['plain JSON', '{"name":"Monstera","id":9007199254740993}', { 'content-type': 'application/json', authorization: 'Bearer tok' }],
    ['quotes, percent and backslashes', `{"name":"it's 100% \\"fine\\" \\\\ ok"}`, { 'content-type': 'application/json' }],
    ['NUL, controls and non-ASCII', `{"name":"a\u0000b\tc\r\n\u00e9\u{1F331}\u007f"}`, { 'content-type': 'application/json; charset=utf-8' }],
    ['a leading @ (curl would read a file)', '@/etc/passwd', { 'content-type': 'text/plain' }],
    ['no content-type at all', '{"name":"x"}', { authorization: 'Bearer t' }],
    ['an empty header value and an empty body', '', { authorization: '', 'content-type': 'application/json' }],
    ['no body', undefined, { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a lone surrogate (sent as U+FFFD by both)', '{"name":"\ud800"}', { 'content-type': 'application/json' }],
  ];

  it.skipIf(!hasCurl).each(bodies)('replays %s byte for byte through bash', async (_name, body, headers) => {
    const client = createClient(echo.url, { connections: 1, timeoutMs: 2_000 });
    const sent = request('/plants', body, headers);
    try {
      await client.send(sent);
    } finally {
      await client.close();
    }
    const viaUndici = echo.received.at(-1);
    const command = toCurl(sent);
    const { stdout } = await run('bash', ['-c', command]);
    expect(stdout).toContain('200 OK');
    const viaCurl = echo.received.at(-1);
    expect(viaCurl).not.toBe(viaUndici);
    expect(viaCurl?.method).toBe('POST');
    expect(viaCurl?.url).toBe('/plants');
    expect(viaCurl?.body.toString('hex')).toBe(viaUndici?.body.toString('hex'));
    for (const name of ['content-type', 'authorization', 'content-length']) {
      expect(viaCurl?.headers[name], `${name} in ${command}`).toBe(viaUndici?.headers[name]);
    }
  });
});

describe('withoutToken', () => {
  it('replaces the run token where it is the credential, never inside other text, and curl leaves it to the shell', () => {
    const request = {
      method: 'POST',
      url: 'http://h/plants',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-other': 'tt' },
      body: '{}',
    };
    const hidden = withoutToken(request, 't');
    expect(hidden.headers).toEqual({ authorization: 'Bearer $TOKEN', 'content-type': 'application/json', 'x-other': 'tt' });
    expect(toCurl(hidden)).toContain(`-H 'authorization: Bearer '"$TOKEN"`);
    expect(withoutToken(request, undefined)).toBe(request);
  });
});

describe('a kept-alive connection the target closes as a request arrives', () => {
  /** Answers each request, but drops the connection at the first request that reuses one (once), and at every request for /broken. */
  async function droppingTarget(): Promise<{ readonly url: string; readonly seen: () => number; close(): Promise<void> }> {
    let seen = 0;
    let reuseDrops = 1;
    const server = createTcpServer((socket) => {
      let onThis = 0;
      socket.on('data', (chunk: Buffer) => {
        seen += 1;
        onThis += 1;
        const broken = chunk.toString('latin1').includes(' /broken ');
        if (broken || (onThis > 1 && reuseDrops > 0)) {
          if (!broken) reuseDrops -= 1;
          socket.destroy();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\nok');
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen: () => seen,
      close: () => new Promise<void>((closed) => server.close(() => closed())),
    };
  }

  it('sends an idempotent request once more on a new connection, and reports a target that drops that one too', async () => {
    const target = await droppingTarget();
    const client = createClient(target.url, { timeoutMs: 2_000, connections: 1 });
    const get = (path: string) => ({ method: 'GET', url: `${client.baseUrl}${path}`, headers: {}, label: 'a read' });
    try {
      expect((await client.send(get('/things/1'))).status).toBe(200);
      // Reused and dropped, then sent again on a new connection.
      expect((await client.send(get('/things/1'))).status).toBe(200);
      expect(target.seen()).toBe(3);
      const dropped = await client.send(get('/broken'));
      expect(dropped.error?.kind).toBe('connection');
      expect(target.seen()).toBe(5);
    } finally {
      await client.close();
      await target.close();
    }
  });

  it('never sends a POST twice: its drop is reported', async () => {
    const target = await droppingTarget();
    const client = createClient(target.url, { timeoutMs: 2_000, connections: 1 });
    const post = { method: 'POST', url: `${client.baseUrl}/things`, headers: { 'content-type': 'application/json' }, body: '{}', label: 'a create' };
    try {
      expect((await client.send(post)).status).toBe(200);
      expect((await client.send(post)).error?.kind).toBe('connection');
      expect(target.seen()).toBe(2);
    } finally {
      await client.close();
      await target.close();
    }
  });
});
