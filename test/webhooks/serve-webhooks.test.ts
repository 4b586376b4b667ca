/**
 * `serve --webhook URL` end to end: a create on the public Plant Store delivers its newPlant
 * webhook to a receiver (the id exact), shown by GET /__control/webhooks and in the journal; a
 * refused create delivers nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const received: string[] = [];
let receiver: Server;
let server: RunningServer;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startServer({ spec: PUBLIC, port: 0, webhook: hook });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

it('delivers newPlant after each create, exactly, and shows the delivery', async () => {
  const created = await send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: '{"name":"Fern","id":9007199254740993}' });
  expect(created.status).toBe(200);
  await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(1);
  expect(received[0]).toBe('{"name":"Fern","id":9007199254740993}');

  const refused = await send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: '{"name":"Again","id":9007199254740993}' });
  expect(refused.status).toBe(400);

  const control = await send(`${server.url}/__control/webhooks`);
  expect(control.status).toBe(200);
  expect(control.json).toMatchObject({
    webhooks: ['newPlant'],
    deliveries: [{ webhook: 'newPlant', resource: 'plants', state: 'delivered', attempts: 1, status: 204 }],
  });
  expect((control.json as { deliveries: unknown[] }).deliveries).toHaveLength(1);
  expect(server.journal.entries({ operation: 'webhook newPlant' })).toMatchObject([{ method: 'POST', path: '/hooks', status: 204 }]);
  expect(received).toHaveLength(1);
});

it('refuses a --webhook that is not an http(s) URL before it serves', async () => {
  await expect(startServer({ spec: PUBLIC, port: 0, webhook: 'mailto:someone@example.com' })).rejects.toThrow(
    /--webhook must be an http:\/\/ or https:\/\/ URL/,
  );
});
