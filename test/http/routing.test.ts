/** Routing: the document's one path and method; 404 for other paths, 405 with Allow for other methods. */
import { describe, expect, it } from 'vitest';
import {
  AUTH,
  expectCreated,
  expectError,
  idSequence,
  parseRawResponse,
  postPlant,
  plantText,
  rawExchange,
  send,
  serverFor,
  VALID_HEADERS,
} from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(70_000n);

describe('routing (bundled document)', () => {
  const server = serverFor();

  it.each([
    ['POST /pets', 'POST', '/pets'],
    ['GET /nowhere', 'GET', '/nowhere'],
    ['POST /plants/1', 'POST', '/plants/1'],
    ['POST /plants/ (trailing slash)', 'POST', '/plants/'],
    ['POST /Plants (paths are case-sensitive)', 'POST', '/Plants'],
  ])('answers an unknown path (%s) with 404 and Error 404 naming the path', async (_label, method, path) => {
    const reply = await send(`${server.current.url}${path}`, { method, headers: { ...AUTH } });
    expect(expectError(reply, 404, 404)).toContain(path);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s /plants with 405, Allow: POST and Error 405', async (method) => {
    const reply = await send(`${server.current.url}/plants`, { method, headers: { ...AUTH } });
    expectError(reply, 405, 405);
    expect(reply.headers.allow).toBe('POST');
  });

  it('answers 405 before looking at credentials (no token needed to learn the method is wrong)', async () => {
    const reply = await send(`${server.current.url}/plants`, { method: 'GET' });
    expectError(reply, 405, 405);
    expect(reply.headers['www-authenticate']).toBeUndefined();
  });

  it('answers OPTIONS /plants (not a CORS preflight) with 204 and Allow: POST, OPTIONS', async () => {
    const reply = await send(`${server.current.url}/plants`, { method: 'OPTIONS' });
    expect(reply.status).toBe(204);
    expect(reply.headers.allow).toBe('POST, OPTIONS');
    expect(reply.text).toBe('');
  });

  it('ignores the query string when routing: POST /plants?x=1 creates a plant', async () => {
    const id = nextId();
    const reply = await postPlant(server.current.url, plantText({ name: 'queried', id }), undefined, '/plants?x=1&y=');
    expectCreated(reply, { name: 'queried' });
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('queried');
  });

  it('keeps ?__proto__ a query parameter like any other', async () => {
    const reply = await send(`${server.current.url}/plants?__proto__=a&__proto__=b&constructor=x`, {
      method: 'POST',
      headers: VALID_HEADERS,
      body: plantText({ name: 'q', id: 8 }),
    });
    expect(reply.status).toBe(200);
  });

  it('answers a 404 for an unknown path that only has a query string in common', async () => {
    expectError(await send(`${server.current.url}/?/plants`, { method: 'POST', headers: { ...AUTH } }), 404, 404);
  });

  it('routes a request whose target is in absolute-form (http://host:port/plants)', async () => {
    const id = nextId();
    const body = plantText({ name: 'absolute', id });
    const { port } = server.current;
    const request = `POST http://127.0.0.1:${port}/plants HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const exchange = await rawExchange(port, request, 3_000);
    expect(parseRawResponse(exchange.text).status).toBe(200);
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('absolute');
  });
});
