/**
 * Requests Node would answer with an empty 400 or a closed socket get the document's Error body:
 * an HTTP/1.1 request without Host (RFC 9112 §3.2), and CONNECT (a stand-in is not a proxy).
 */
import { describe, expect, it } from 'vitest';
import { expectStillServing, idSequence, parseRawResponse, parseRawResponses, plantText, rawExchange, serverFor } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(80_000n);

function post(version: '1.0' | '1.1', host: string | undefined, body: string): string {
  const hostLine = host === undefined ? '' : `Host: ${host}\r\n`;
  return `POST /plants HTTP/${version}\r\n${hostLine}Authorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

describe('Host', () => {
  const server = serverFor();

  it('refuses an HTTP/1.1 request without Host with 400 and an Error body that names Host; nothing is stored', async () => {
    const id = nextId();
    const exchange = await rawExchange(server.current.port, post('1.1', undefined, plantText({ name: 'no host', id })), 3_000);
    const response = parseRawResponse(exchange.text);
    expect(response.status, exchange.text).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: expect.stringContaining('Host') });
    expect(await (await storedPlants(server.current)).get(id)).toBeUndefined();
    await expectStillServing(server.current, nextId());
  });

  it('accepts an HTTP/1.0 request without Host (HTTP/1.0 has none)', async () => {
    const id = nextId();
    const exchange = await rawExchange(server.current.port, post('1.0', undefined, plantText({ name: 'http 1.0', id })), 3_000);
    expect(parseRawResponse(exchange.text).status, exchange.text).toBe(200);
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('http 1.0');
  });
});

describe('CONNECT', () => {
  const server = serverFor();

  it('answers CONNECT with 405 and an Error body saying this is not a proxy, then closes', async () => {
    const exchange = await rawExchange(server.current.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 3_000);
    expect(exchange.closedByServer).toBe(true);
    const response = parseRawResponse(exchange.text);
    expect(response.status, exchange.text).toBe(405);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toEqual({ error: 405, message: expect.stringContaining('not a proxy') });
    await expectStillServing(server.current, nextId());
  });

  it('a POST pipelined before CONNECT still gets its 200 first', async () => {
    const id = nextId();
    const body = plantText({ name: 'before connect', id });
    const first = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const exchange = await rawExchange(server.current.port, `${first}CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, 3_000);
    expect(exchange.closedByServer).toBe(true);
    expect(
      parseRawResponses(exchange.text).map((response) => response.status),
      exchange.text,
    ).toEqual([200, 405]);
  });
});
