/**
 * Bodies in flight are bounded in total (bodyBufferBytes): slow senders holding bodies cannot add
 * up to the server's memory; a request past the budget gets 503 + Retry-After, and the budget
 * comes back when a request is answered or its client leaves. A body the server refused before
 * reading is not drained: the answer closes the connection.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { AUTH, expectCreated, expectError, idSequence, parseRawResponse, plantText, postPlant, rawExchange, serverFor, type Reply } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(95_000n);
const LIMIT = 1024;

/** A client that sends its headers and part of its body, then waits. */
interface Holder {
  /** Sends the rest and resolves with everything the server wrote until it closed. */
  finish(): Promise<string>;
  abort(): void;
}

const open: Socket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.destroy();
});

function hold(port: number, body: string, chunked: boolean): Holder {
  const socket = connect(port, '127.0.0.1');
  open.push(socket);
  socket.on('error', () => {});
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${Buffer.byteLength(body)}`;
  const head = `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n${framing}\r\nConnection: close\r\n\r\n`;
  const cut = body.length - 10;
  const piece = (text: string) => (chunked ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : text);
  socket.write(head + piece(body.slice(0, cut)));
  return {
    finish: () =>
      new Promise((resolve) => {
        socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
        socket.write(piece(body.slice(cut)) + (chunked ? '0\r\n\r\n' : ''));
      }),
    abort: () => socket.destroy(),
  };
}

/** A plant whose JSON text is exactly `bytes` long. */
function plantOfSize(bytes: number, id: bigint): string {
  const shell = plantText({ name: '', id });
  return plantText({ name: 'h'.repeat(bytes - Buffer.byteLength(shell)), id });
}

/** Probes with a small valid POST until one is refused for the budget (the holders have reserved their bytes). */
async function probeUntilRefused(url: string): Promise<Reply> {
  const deadline = performance.now() + 3_000;
  for (;;) {
    const reply = await postPlant(url, plantText({ name: 'probe', id: nextId() }));
    if (reply.status === 503 || performance.now() > deadline) return reply;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the body budget (bodyLimitBytes 1024, bodyBufferBytes 2048)', () => {
  const server = serverFor({ bodyLimitBytes: LIMIT, bodyBufferBytes: 2 * LIMIT });

  it('a declared and a chunked slow sender hold the budget: a further request gets 503 + Retry-After and an Error; when they finish, requests succeed', async () => {
    const declaredId = nextId();
    const chunkedId = nextId();
    const holders = [hold(server.current.port, plantOfSize(LIMIT, declaredId), false), hold(server.current.port, plantOfSize(LIMIT, chunkedId), true)];
    const refused = await probeUntilRefused(server.current.url);
    expect(expectError(refused, 503, 503)).toContain('--body-buffer-bytes');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.connection).toBe('close');

    const answers = await Promise.all(holders.map((holder) => holder.finish()));
    expect(answers.map((text) => parseRawResponse(text).status)).toEqual([200, 200]);
    expect(await (await storedPlants(server.current)).get(declaredId)).toBeDefined();
    expect(await (await storedPlants(server.current)).get(chunkedId)).toBeDefined();
    expectCreated(await postPlant(server.current.url, plantText({ name: 'after', id: nextId() })), { name: 'after' });
  });

  it('clients that leave mid-body give their bytes back: after three rounds of aborted holders, two full bodies still fit', async () => {
    for (let round = 0; round < 3; round++) {
      const holders = [hold(server.current.port, plantOfSize(LIMIT, nextId()), false), hold(server.current.port, plantOfSize(LIMIT, nextId()), true)];
      expectError(await probeUntilRefused(server.current.url), 503, 503);
      for (const holder of holders) holder.abort();
    }
    // A leak of any aborted reservation would refuse one of these two with 503.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ids = [nextId(), nextId()];
    const holders = ids.map((id) => hold(server.current.port, plantOfSize(LIMIT, id), false));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answers = await Promise.all(holders.map((holder) => holder.finish()));
    expect(
      answers.map((text) => parseRawResponse(text).status),
      answers.join('\n'),
    ).toEqual([200, 200]);
  });
});

it('startServer refuses a bodyBufferBytes below bodyLimitBytes, naming both', async () => {
  await expect(startServer({ port: 0, bodyLimitBytes: 2048, bodyBufferBytes: 1024 })).rejects.toThrow(
    'bodyBufferBytes (1024) must be at least bodyLimitBytes (2048)',
  );
});

describe('a body refused before it was read is not drained', () => {
  const server = serverFor();

  it.each([
    ['a POST to an unknown path (404)', `POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`, 404],
    [
      'a POST /plants without credentials (401)',
      `POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500000\r\n\r\n{"name":`,
      400,
    ],
    ['a chunked PUT /plants (405)', `PUT /plants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n${'x'.repeat(1024)}\r\n`, 405],
  ])('%s: answered with Connection: close, and the connection closes without waiting for the body', async (_label, head, status) => {
    const exchange = await rawExchange(server.current.port, head, 3_000);
    expect(exchange.closedByServer, `the server kept the connection to drain the body; got ${JSON.stringify(exchange.text)}`).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(status);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toHaveProperty('message');
  });

  it('a refused request whose small body has fully arrived keeps its connection (two pipelined 404s are both answered)', async () => {
    const request = `POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const exchange = await rawExchange(server.current.port, `${request}${request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}`, 3_000);
    expect([...exchange.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]))).toEqual([404, 404]);
  });

  it('the API keeps answering after all that', async () => {
    expectCreated(await postPlant(server.current.url, plantText({ name: 'fine', id: nextId() }), { ...AUTH, 'content-type': 'application/json' }), {
      name: 'fine',
    });
  });
});
