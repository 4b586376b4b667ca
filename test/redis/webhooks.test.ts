/**
 * Webhooks over replicas on one Redis: a create is answered 200 by one replica only, so its
 * webhook goes out once, whichever replicas race for the id; and every replica's journal shows
 * the delivery attempts. (Two servers in this process, each with its own Redis connection.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const received: string[] = [];
let receiver: Server;
let redis: TestRedis;
let replicas: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  replicas = await Promise.all([0, 1].map(() => startServer({ spec: PUBLIC, port: 0, webhook, store: redis.url })));
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await new Promise((resolve) => receiver.close(resolve));
  await redis?.stop();
});

it('delivers one webhook per create, however many replicas raced for the id', async () => {
  const body = (id: number) => `{"name":"Fern ${id}","id":${id}}`;
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, index) => send(`${replicas[index % 2]!.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: body(77) })),
  );
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  for (const id of [78, 79])
    expect((await send(`${replicas[id % 2]!.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: body(id) })).status).toBe(200);
  await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received.sort()).toEqual([body(77), body(78), body(79)]);
  // Each replica's journal (read through its control API) shows all three attempts.
  for (const replica of replicas) {
    const journal = await send(`${replica.url}/__control/journal?operation=${encodeURIComponent('webhook newPlant')}`);
    expect(journal.json).toHaveLength(3);
  }
});
