/**
 * The Swagger Petstore 3 (test/fixtures/documents/swagger-petstore3.yaml) served over HTTP: its
 * create bodies' ids are optional, so a create may give one (taken as is; a taken one is refused)
 * or leave it out (the server assigns one no item has). Served under the document's server path
 * (/api/v3) as well as at `/`, so a frontend configured with the document's base path works.
 */
import { describe, expect, it } from 'vitest';
import { AUTH, send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/swagger-petstore3.yaml', import.meta.url).pathname;

describe('the Swagger Petstore 3, stateful', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: string) =>
    send(`${server.current.url}${path}`, {
      method,
      headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('POST /api/v3/pet with an id, then GET /api/v3/pet/{id} answers that pet', async () => {
    const created = await call('POST', '/api/v3/pet', '{"id":9007199254740993,"name":"Rex","photoUrls":["a.png"],"status":"available"}');
    expect(created.status).toBe(200);
    expect(created.text).toContain('"id":9007199254740993');
    conforms('post', '/pet', created);
    const read = await call('GET', '/api/v3/pet/9007199254740993');
    expect(read.status).toBe(200);
    expect(read.text).toBe(created.text);
    conforms('get', '/pet/{petId}', read);
    // The same store answers at `/`: one API, two addresses.
    expect((await call('GET', '/pet/9007199254740993')).text).toBe(created.text);
  });

  it('a create without an id gets one no pet has, readable back; a taken id is refused and changes nothing', async () => {
    await call('POST', '/api/v3/pet', '{"id":1,"name":"Taken","photoUrls":[]}');
    const first = await call('POST', '/api/v3/pet', '{"name":"Tom","photoUrls":[]}');
    const second = await call('POST', '/api/v3/pet', '{"name":"Jerry","photoUrls":[]}');
    expect([first.status, second.status]).toEqual([200, 200]);
    const ids = [first, second].map((reply) => (reply.json as { id: number }).id);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect(new Set([...ids, 1]).size).toBe(3);
    for (const [index, reply] of [first, second].entries()) {
      const read = await call('GET', `/api/v3/pet/${ids[index]}`);
      expect(read.json).toEqual(reply.json);
    }
    const again = await call('POST', '/api/v3/pet', `{"id":${ids[0]},"name":"Impostor","photoUrls":[]}`);
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect(((await call('GET', `/api/v3/pet/${ids[0]}`)).json as { name: string }).name).toBe('Tom');
  });

  it('orders and users: created, read and deleted under /api/v3; a user without a username gets one', async () => {
    const order = await call('POST', '/api/v3/store/order', '{"petId":1,"quantity":2,"status":"placed"}');
    expect(order.status).toBe(200);
    const orderId = (order.json as { id: number }).id;
    expect((await call('GET', `/api/v3/store/order/${orderId}`)).json).toEqual(order.json);
    expect((await call('DELETE', `/api/v3/store/order/${orderId}`)).status).toBe(200);
    expect((await call('GET', `/api/v3/store/order/${orderId}`)).status).toBe(404);

    const user = await call('POST', '/api/v3/user', '{"username":"ada","firstName":"Ada"}');
    expect(user.status).toBe(200);
    expect(((await call('GET', '/api/v3/user/ada')).json as { firstName: string }).firstName).toBe('Ada');
    const nameless = await call('POST', '/api/v3/user', '{"firstName":"Anon"}');
    expect(nameless.status).toBe(200);
    const username = (nameless.json as { username?: unknown }).username;
    expect(typeof username).toBe('string');
    expect((await call('GET', `/api/v3/user/${encodeURIComponent(username as string)}`)).json).toEqual(nameless.json);
  });

  it('an optional request body left out: POST /store/order makes an order of no given properties, PUT /user/{username} changes nothing', async () => {
    const order = await call('POST', '/api/v3/store/order');
    expect(order.status).toBe(200);
    expect((await call('GET', `/api/v3/store/order/${(order.json as { id: number }).id}`)).json).toEqual(order.json);
    await call('POST', '/api/v3/user', '{"username":"grace","firstName":"Grace"}');
    // Nothing sent to replace with: the user stays as stored (it was emptied, and DigitalOcean's autoscale pool, emptied, broke its own schema).
    const kept = await call('PUT', '/api/v3/user/grace');
    expect(kept.status).toBe(200);
    expect((await call('GET', '/api/v3/user/grace')).json).toEqual({ username: 'grace', firstName: 'Grace' });
    expect((await call('PUT', '/api/v3/user/nobody')).status).toBe(404);
  });

  it('PUT /pet (an update by body) and /pet/findByStatus are not taken for an item: they stay mocked and answer', async () => {
    const found = await call('GET', '/api/v3/pet/findByStatus?status=available');
    expect(found.status).toBe(200);
    expect(Array.isArray(found.json)).toBe(true);
    const updated = await call('PUT', '/api/v3/pet', '{"id":5,"name":"Rex","photoUrls":[]}');
    expect(updated.status).toBe(200);
  });

  it('a path outside the document and its base path is still a 404', async () => {
    expect((await call('GET', '/api/v4/pet/1')).status).toBe(404);
    expect((await call('GET', '/api/v3x/pet/1')).status).toBe(404);
  });
});
