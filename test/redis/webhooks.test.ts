/**
 * Webhooks over three replicas on one Redis: a create is answered 200 by one replica only, so its
 * webhook goes out once, whichever replicas race for the id; every replica's journal shows the
 * attempts; and /__control/webhooks and health on any replica show every replica's deliveries
 * (the last --webhook-history of them, one numbering) and their waiting and dropped counts.
 * (Three servers in this process, each with its own Redis connection.)
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const HISTORY = 5;
const received: string[] = [];
/** While set, the receiver holds its answers here (deliveries stay pending). */
let held: ServerResponse[] | undefined;
let receiver: Server;
let redis: TestRedis;
let replicas: RunningServer[] = [];

interface Shown {
  readonly pending: number;
  readonly dropped: number;
  readonly history: number;
  readonly deliveries: { id: number; state: string; resource: string; attempts: number }[];
}

const create = (replica: number, id: number) =>
  send(`${replicas[replica]!.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: `{"name":"Fern ${id}","id":${id}}` });
const shown = async (replica: number) => (await send(`${replicas[replica]!.url}/__control/webhooks`)).json as Shown;

beforeAll(async () => {
  redis = await startRedis();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      if (held) held.push(response);
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  replicas = await Promise.all(
    [0, 1, 2].map(() => startServer({ spec: PUBLIC, port: 0, webhook, store: redis.url, webhookHistory: HISTORY, webhookMaxPending: 2 })),
  );
});

afterAll(async () => {
  for (const response of held ?? []) response.writeHead(204).end();
  await Promise.all(replicas.map((replica) => replica.close()));
  await new Promise((resolve) => receiver.close(resolve));
  await redis?.stop();
});

it('delivers one webhook per create, however many replicas raced for the id, and every replica shows all three', async () => {
  const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => create(index % 3, 77)));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  for (const id of [78, 79]) expect((await create(id % 3, id)).status).toBe(200);
  await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received.map((body) => (JSON.parse(body) as { id: number }).id).sort()).toEqual([77, 78, 79]);
  for (const replica of [0, 1, 2]) {
    // Each replica's journal (read through its control API) shows all three attempts.
    const journal = await send(`${replicas[replica]!.url}/__control/journal?operation=${encodeURIComponent('webhook newPlant')}`);
    expect(journal.json).toHaveLength(3);
    await expect.poll(async () => (await shown(replica)).deliveries.filter((each) => each.state === 'delivered').length).toBe(3);
    const { deliveries, pending } = await shown(replica);
    expect(pending).toBe(0);
    expect(deliveries.map((each) => each.id)).toEqual([1, 2, 3]);
    expect(deliveries.every((each) => each.resource === 'plants' && each.attempts === 1)).toBe(true);
  }
});

it('keeps the last --webhook-history deliveries of all replicas, the same on each', async () => {
  for (const id of [80, 81, 82, 83]) expect((await create(id % 3, id)).status).toBe(200);
  await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(7);
  await expect.poll(async () => (await shown(0)).deliveries.map((each) => `${each.id} ${each.state}`)).toEqual([3, 4, 5, 6, 7].map((id) => `${id} delivered`));
  for (const replica of [1, 2]) expect((await shown(replica)).deliveries).toEqual((await shown(0)).deliveries);
  expect((await shown(2)).history).toBe(HISTORY);
});

it("counts every replica's waiting and dropped deliveries, in /__control/webhooks and health alike", async () => {
  held = [];
  // --webhook-max-pending 2 per replica: two wait on replica 0, a third is dropped there; one waits on replica 1.
  for (const id of [90, 91, 92]) expect((await create(0, id)).status).toBe(200);
  expect((await create(1, 93)).status).toBe(200);
  await expect.poll(() => held?.length, { timeout: 5000, interval: 20 }).toBe(3);
  for (const replica of [2, 1, 0]) {
    await expect.poll(async () => (await shown(replica)).pending, { timeout: 5000, interval: 50 }).toBe(3);
    const { dropped, deliveries } = await shown(replica);
    expect(dropped).toBe(1);
    expect(deliveries.map((each) => each.state).sort()).toEqual(['delivered', 'dropped', 'pending', 'pending', 'pending']);
    const health = (await send(`${replicas[replica]!.url}/__control/health`)).json as { webhooks: { pending: number; dropped: number } };
    expect(health.webhooks).toEqual({ pending: 3, dropped: 1 });
  }
  const waiting = held ?? [];
  held = undefined;
  for (const response of waiting) response.writeHead(204).end();
  for (const replica of [0, 1, 2]) await expect.poll(async () => (await shown(replica)).pending, { timeout: 5000, interval: 50 }).toBe(0);
  expect((await shown(2)).deliveries.filter((each) => each.state === 'delivered')).toHaveLength(4);
});
