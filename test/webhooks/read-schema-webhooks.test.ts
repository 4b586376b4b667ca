/**
 * A webhook whose payload is the resource's read schema (id included), while the answers compose
 * links onto it: linked to the resource, and delivered by serve --webhook over real sockets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { startServer, type RunningServer } from '../../src/index.js';
import { JSON_TYPE, send } from '../support/server.js';

const READ = fileURLToPath(new URL('../fixtures/read-webhooks.yaml', import.meta.url));
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
  server = await startServer({ spec: READ, port: 0, webhook: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

it('links the webhook to the resource by a part of its read schema', async () => {
  const model = inferResources(await loadDocument(READ));
  expect(model.resources.map((resource) => [resource.name, resource.webhooks])).toEqual([['orders', ['orderCreated']]]);
});

it('delivers orderCreated with the created order, its id included', async () => {
  const created = await send(`${server.url}/orders`, { method: 'POST', headers: JSON_TYPE, body: '{"item":"tea","quantity":2}' });
  expect(created.status, created.text).toBe(201);
  const { id } = created.json as { id: string };
  await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(1);
  expect(JSON.parse(received[0] ?? '')).toMatchObject({ id, item: 'tea', quantity: 2 });
});
