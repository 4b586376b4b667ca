/**
 * Pipelined requests on one keep-alive connection: every request that was read gets its own
 * answer, in order; a request Node cannot parse gets its Error after them, then the connection
 * closes. Before, the raw error answer overtook an earlier answer still in flight, so a stored
 * plant looked refused to the client.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { idSequence, parseRawResponses, plantText, rawExchange, serverFor } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(70_000n);

function postText(name: string, id: bigint): string {
  const body = plantText({ name, id });
  return `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const GARBAGE = 'BLAH BLAH\r\n\r\n';
const HUGE_HEADER = `GET /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;

describe('pipelined requests followed by one Node cannot parse', () => {
  const server = serverFor({ requestTimeoutMs: 2_000 });

  it.each([
    ['a malformed request line', GARBAGE, 400],
    ['a 20 KiB header', HUGE_HEADER, 431],
  ])('POST /plants then %s: 200 for the POST, then the Error, then close', async (_label, bad, status) => {
    const id = nextId();
    const exchange = await rawExchange(server.current.port, postText('first', id) + bad, 3_000);
    expect(exchange.closedByServer).toBe(true);
    const responses = parseRawResponses(exchange.text);
    expect(
      responses.map((response) => response.status),
      exchange.text,
    ).toEqual([200, status]);
    expect(responses[0]?.body).toBe('{"name":"first"}');
    expect(JSON.parse(responses[1]?.body ?? '')).toEqual({ error: 400, message: expect.any(String) });
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('first');
  });

  it('five pipelined POSTs then garbage: five 200s in order, then the 400', async () => {
    const ids = [nextId(), nextId(), nextId(), nextId(), nextId()];
    const exchange = await rawExchange(server.current.port, ids.map((id, index) => postText(`plant ${index}`, id)).join('') + GARBAGE, 3_000);
    expect(exchange.closedByServer).toBe(true);
    const responses = parseRawResponses(exchange.text);
    expect(
      responses.map((response) => response.status),
      exchange.text,
    ).toEqual([200, 200, 200, 200, 200, 400]);
    expect(responses.slice(0, 5).map((response) => response.body)).toEqual(ids.map((_id, index) => `{"name":"plant ${index}"}`));
  });
});

/** Sends `first`, waits for its whole answer, then sends `second` on the same connection; everything received until the server closes. */
function twoPhases(port: number, first: string, second: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sentSecond = false;
    const deadline = setTimeout(() => reject(new Error(`no close within 3 s; got ${JSON.stringify(text)}`)), 3_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!sentSecond && text.endsWith('}')) {
        sentSecond = true;
        socket.write(second);
      }
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(text);
    });
    socket.on('connect', () => socket.write(first));
  });
}

it('garbage after an earlier answer has gone out is answered without waiting for anything', async () => {
  const server = await startServer({ port: 0 });
  try {
    // Waiting on the finished answer would hold the Error until the keep-alive timeout (5 s) and lose it.
    const text = await twoPhases(server.port, postText('answered first', nextId()), GARBAGE);
    expect(
      parseRawResponses(text).map((response) => response.status),
      text,
    ).toEqual([200, 400]);
  } finally {
    await server.close();
  }
});

describe('when an earlier pipelined request is delayed (a latency fault)', () => {
  const server = serverFor({ faults: [{ kind: 'latency', latencyMs: 300 }] });

  it.each([
    ['a malformed request line', GARBAGE, 400],
    ['a 20 KiB header', HUGE_HEADER, 431],
  ])('the Error for %s still waits for the delayed 200', async (_label, bad, status) => {
    const id = nextId();
    const exchange = await rawExchange(server.current.port, postText('slow', id) + bad, 3_000);
    expect(exchange.closedByServer).toBe(true);
    expect(
      parseRawResponses(exchange.text).map((response) => response.status),
      exchange.text,
    ).toEqual([200, status]);
    expect(exchange.elapsedMs).toBeGreaterThanOrEqual(250);
  });
});

describe('when the request the error is about is the last one, still being received', () => {
  const server = serverFor({ requestTimeoutMs: 500 });

  it('POST, then a chunked POST with a bad chunk size: 200, then one 400, then close', async () => {
    const id = nextId();
    const bad =
      'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nzz\r\n';
    const exchange = await rawExchange(server.current.port, postText('before a bad chunk', id) + bad, 3_000);
    expect(exchange.closedByServer).toBe(true);
    expect(
      parseRawResponses(exchange.text).map((response) => response.status),
      exchange.text,
    ).toEqual([200, 400]);
  });

  it('POST, then a POST whose body never finishes: 200, then 408 once the time is up, then close', async () => {
    const half = 'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"a';
    const exchange = await rawExchange(server.current.port, postText('before a stall', nextId()) + half, 3_000);
    expect(exchange.closedByServer, `no answer within 3 s; got ${JSON.stringify(exchange.text)}`).toBe(true);
    expect(
      parseRawResponses(exchange.text).map((response) => response.status),
      exchange.text,
    ).toEqual([200, 408]);
  });
});
