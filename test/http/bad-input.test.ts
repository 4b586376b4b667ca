/**
 * Everything else a client can send wrong gets HTTP 400 (the document's only failure status) and
 * an Error with a code that says what was wrong; never a 5xx, never a hang, and the server keeps
 * serving: every test ends with a valid request answered 200.
 */
import { describe, expect, it } from 'vitest';
import {
  AUTH,
  expectCreated,
  expectError,
  expectStillServing,
  idSequence,
  parseRawResponse,
  postPlant,
  plantText,
  rawExchange,
  serverFor,
  VALID_HEADERS,
} from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(50_000n);

describe('bodies that are not a JSON object', () => {
  const server = serverFor();

  it.each([
    ['malformed JSON', '{"name":"a","id":'],
    ['JSON with trailing garbage', '{"name":"a","id":1} x'],
    ['single quotes', "{'name':'a','id':1}"],
    ['100,000 unclosed [', '['.repeat(100_000)],
  ])('refuses %s with Error 400', async (_label, body) => {
    expectError(await postPlant(server.current.url, body), 400, 400);
    await expectStillServing(server.current, nextId());
  });

  it('refuses an empty body with Error 400', async () => {
    const message = expectError(await postPlant(server.current.url, ''), 400, 400);
    expect(message).toContain('empty');
    await expectStillServing(server.current, nextId());
  });

  it.each([
    ['[]', '[]'],
    ['a string', '"x"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('refuses JSON that is not an object (%s) with Error 422', async (_label, body) => {
    expectError(await postPlant(server.current.url, body), 400, 422);
    await expectStillServing(server.current, nextId());
  });

  it('refuses bytes that are not UTF-8 with Error 400', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(`","id":${nextId()}}`)]);
    const before = await (await storedPlants(server.current)).count();
    expect(expectError(await postPlant(server.current.url, body), 400, 400)).toContain('UTF-8');
    expect(await (await storedPlants(server.current)).count()).toBe(before);
    await expectStillServing(server.current, nextId());
  });

  it('refuses 100,000 levels of nested arrays with Error 400, quickly', async () => {
    const started = performance.now();
    const reply = await postPlant(server.current.url, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const elapsed = performance.now() - started;
    expect(expectError(reply, 400, 400)).toContain('nests deeper');
    expect(elapsed).toBeLessThan(2_000);
    await expectStillServing(server.current, nextId());
  });

  it('refuses 100,000 levels of nested objects with Error 400, quickly', async () => {
    const started = performance.now();
    const reply = await postPlant(server.current.url, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    const elapsed = performance.now() - started;
    expectError(reply, 400, 400);
    expect(elapsed).toBeLessThan(2_000);
    await expectStillServing(server.current, nextId());
  });

  it('accepts a very long string: a 500 KB name is stored whole', async () => {
    const id = nextId();
    const name = 'n'.repeat(500_000);
    const reply = await postPlant(server.current.url, plantText({ name, id }));
    expectCreated(reply, { name });
    expect((await (await storedPlants(server.current)).get(id))?.name.length).toBe(500_000);
  });
});

describe('content type', () => {
  const server = serverFor();

  it.each([
    ['text/plain', 'text/plain'],
    ['application/json; charset=latin1', 'application/json; charset=latin1'],
    ['application/xml', 'application/xml'],
    ['not a media type', 'json'],
  ])('refuses %s with Error 415', async (_label, contentType) => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postPlant(server.current.url, plantText({ name: 'typed', id: nextId() }), { ...AUTH, 'content-type': contentType });
    expectError(reply, 400, 415);
    expect(await (await storedPlants(server.current)).count()).toBe(before);
    await expectStillServing(server.current, nextId());
  });

  it('refuses a JSON body sent without a Content-Type with Error 415', async () => {
    expectError(await postPlant(server.current.url, plantText({ name: 'untyped', id: nextId() }), { ...AUTH }), 400, 415);
  });

  it.each([
    ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
    ['application/json; charset="UTF-8"', 'application/json; charset="UTF-8"'],
    ['APPLICATION/JSON (media types are case-insensitive)', 'APPLICATION/JSON'],
  ])('accepts %s', async (_label, contentType) => {
    const reply = await postPlant(server.current.url, plantText({ name: 'typed', id: nextId() }), { ...AUTH, 'content-type': contentType });
    expectCreated(reply, { name: 'typed' });
  });
});

describe('body size (bodyLimitBytes: 1024)', () => {
  const server = serverFor({ bodyLimitBytes: 1024 });

  it('refuses a 2 KiB body with Error 413 and closes the connection; nothing is stored', async () => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postPlant(server.current.url, plantText({ name: 'x'.repeat(2048), id: nextId() }));
    expect(expectError(reply, 400, 413)).toContain('1024');
    expect(reply.headers.connection).toBe('close');
    expect(await (await storedPlants(server.current)).count()).toBe(before);
    await expectStillServing(server.current, nextId());
  });

  it('accepts a body of exactly 1024 bytes', async () => {
    const id = nextId();
    const shell = plantText({ name: '', id });
    const name = 'y'.repeat(1024 - Buffer.byteLength(shell));
    const body = plantText({ name, id });
    expect(Buffer.byteLength(body)).toBe(1024);
    expectCreated(await postPlant(server.current.url, body), { name });
  });

  it('refuses a chunked body (no Content-Length) as soon as it passes the limit, with Error 413', async () => {
    const id = nextId();
    async function* chunks(): AsyncGenerator<Buffer> {
      yield Buffer.from(`{"name":"${'a'.repeat(700)}`);
      yield Buffer.from(`${'b'.repeat(700)}","id":${id}}`);
    }
    const reply = await postPlant(server.current.url, chunks());
    expectError(reply, 400, 413);
    expect(await (await storedPlants(server.current)).get(id)).toBeUndefined();
    await expectStillServing(server.current, nextId());
  });

  it('accepts a chunked body under the limit', async () => {
    const id = nextId();
    async function* chunks(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"name":"chun');
      yield Buffer.from(`ked","id":${id}}`);
    }
    expectCreated(await postPlant(server.current.url, chunks()), { name: 'chunked' });
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('chunked');
  });

  it('refuses a declared Content-Length over the limit before any body byte arrives', async () => {
    const head = `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n`;
    const exchange = await rawExchange(server.current.port, head, 3_000);
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 413, message: expect.stringContaining('1024') });
    await expectStillServing(server.current, nextId());
  });
});

describe('keys that could pollute prototypes', () => {
  const server = serverFor();

  it.each([
    ['__proto__', (id: bigint) => `{"__proto__":{"polluted":"yes"},"name":"proto","id":${id}}`, 60_001n],
    [
      '__proto__ with an id beyond 2^53 (the exact-number parser)',
      (id: bigint) => `{"__proto__":{"polluted":"yes"},"name":"proto","id":${id}}`,
      9007199254740995n,
    ],
    ['constructor.prototype', (id: bigint) => `{"constructor":{"prototype":{"polluted":"yes"}},"name":"proto","id":${id}}`, 60_002n],
  ])('%s: accepted as data, no prototype polluted, the stored plant has no extra keys', async (_label, body, id) => {
    const reply = await postPlant(server.current.url, body(id));
    expectCreated(reply, { name: 'proto' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const stored = await (await storedPlants(server.current)).get(id);
    expect(stored).toEqual({ id, name: 'proto' });
    expect(Object.keys(stored ?? {})).toEqual(['id', 'name']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect((stored as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not read name and id through __proto__: {"__proto__":{"name","id"}} lacks both (Error 422)', async () => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postPlant(server.current.url, '{"__proto__":{"name":"inherited","id":60003}}');
    expectError(reply, 400, 422);
    expect(await (await storedPlants(server.current)).get(60003n)).toBeUndefined();
    expect(await (await storedPlants(server.current)).count()).toBe(before);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });
});

describe('repeated keys: the last one wins, whatever the body holds', () => {
  const server = serverFor();

  // JSON.parse keeps the last value; the exact parser (taken when a number, or a string, may hide
  // digits a double loses) once refused the same body as "Duplicate key": one rule now.
  it.each([
    ['plain strings', '{"name":"first","name":"second","id":%ID%}'],
    ['a string that looks like a fraction (once sent to the exact parser)', '{"name":"v1.5","name":"second","id":%ID%}'],
  ])('%s: 200, and the plant holds the last name', async (_label, template) => {
    const id = nextId();
    expectCreated(await postPlant(server.current.url, template.replace('%ID%', String(id))), { name: 'second' });
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('second');
  });

  it('a big-number body with repeated keys: the last id wins, exactly', async () => {
    const reply = await postPlant(server.current.url, '{"name":"a","id":1,"name":"big","id":9007199254740997}');
    expectCreated(reply, { name: 'big' });
    expect(await (await storedPlants(server.current)).get(9007199254740997n)).toEqual({ id: 9007199254740997n, name: 'big' });
    expect(await (await storedPlants(server.current)).get(1n)).toBeUndefined();
  });

  it('takes the last of repeated keys with a number beyond 2^53 (200, as JSON.parse would), not a 500', async () => {
    const reply = await postPlant(server.current.url, '{"name":"a","name":"b","id":9007199254740993}');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('{"name":"b"}');
  });
});

describe('requests that are not proper HTTP', () => {
  const server = serverFor({ requestTimeoutMs: 500 });

  // Node checks requestTimeout only every connectionsCheckingInterval, which startServer ties to the timeout.
  it('answers a half-sent body (Content-Length 100, 10 bytes sent) with 408 and closes, without hanging', async () => {
    const head = `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const exchange = await rawExchange(server.current.port, `${head}{"name":"a`, 3_000);
    expect(exchange.closedByServer, `no answer within 3 s (requestTimeoutMs is 500); got ${JSON.stringify(exchange.text)}`).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(408);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.any(String) });
    expect(exchange.elapsedMs).toBeGreaterThanOrEqual(400);
    await expectStillServing(server.current, nextId());
  });

  it('answers headers that never finish with 408 and an Error body, then closes', async () => {
    const exchange = await rawExchange(server.current.port, 'POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n', 3_000);
    expect(exchange.closedByServer, `no answer within 3 s; got ${JSON.stringify(exchange.text)}`).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.any(String) });
    await expectStillServing(server.current, nextId());
  });

  it('answers headers larger than the server reads (20 KB) with 431 and an Error body, then closes', async () => {
    const exchange = await rawExchange(server.current.port, `POST /plants HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 3_000);
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.stringContaining('headers') });
    await expectStillServing(server.current, nextId());
  });

  it('answers a chunked body with a bad chunk size with one 400 and an Error body, then closes', async () => {
    const head = 'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const exchange = await rawExchange(server.current.port, `${head}5\r\n{"nam\r\nzz\r\n`, 3_000);
    expect(exchange.closedByServer).toBe(true);
    expect([...exchange.text.matchAll(/HTTP\/1\.1 \d{3}/g)]).toHaveLength(1);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.any(String) });
    await expectStillServing(server.current, nextId());
  });

  it('answers both Content-Length and Transfer-Encoding (request smuggling) with 400 and an Error body', async () => {
    const exchange = await rawExchange(
      server.current.port,
      'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      3_000,
    );
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.any(String) });
  });

  it('answers bytes that are not HTTP with 400 and an Error body, then closes', async () => {
    const exchange = await rawExchange(server.current.port, 'hello there, this is not HTTP\r\n\r\n', 3_000);
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.stringContaining('malformed HTTP request') });
    await expectStillServing(server.current, nextId());
  });

  it('answers a request line with a bad header with 400 and an Error body', async () => {
    const exchange = await rawExchange(server.current.port, 'POST /plants HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n', 3_000);
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.any(String) });
    await expectStillServing(server.current, nextId());
  });

  it('keeps serving a keep-alive connection after a refused request on it', async () => {
    const bad = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{`;
    const good = plantText({ name: 'second on the connection', id: nextId() });
    const second = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(good)}\r\nConnection: close\r\n\r\n${good}`;
    const exchange = await rawExchange(server.current.port, bad + second, 3_000);
    expect(exchange.closedByServer).toBe(true);
    const statuses = [...exchange.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([400, 200]);
    expect(exchange.text).toContain('{"error":400,');
    expect(exchange.text).toContain('{"name":"second on the connection"}');
  });
});

describe('a valid request is unaffected by all of the above', () => {
  const server = serverFor();

  it('answers 200 with the headers a JSON client needs', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'control', id: nextId() }), VALID_HEADERS);
    expectCreated(reply, { name: 'control' });
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
  });
});
