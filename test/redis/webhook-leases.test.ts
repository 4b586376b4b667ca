/**
 * The shared webhook counts without a server around them: a replica's waiting deliveries count
 * while it renews its lease and leave the total by themselves once it stops (a replica killed
 * mid-delivery), while a live replica's stay; the history is trimmed to its size as rows are
 * added, and a later change of a trimmed delivery does not bring it back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, parseStoreTarget, type RedisConnection } from '../../src/store/redis/connection.js';
import type { WebhookDelivery } from '../../src/webhooks/sender.js';
import { createSharedDeliveries, type SharedDeliveries } from '../../src/webhooks/shared-deliveries.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
let connection: RedisConnection;
const opened: SharedDeliveries[] = [];

beforeAll(async () => {
  redis = await startRedis();
  connection = await connectRedis(parseStoreTarget(redis.url) as Extract<ReturnType<typeof parseStoreTarget>, { kind: 'redis' }>, { commandTimeoutMs: 2000 });
});

afterAll(async () => {
  for (const each of opened) each.close();
  await connection?.close();
  await redis?.stop();
});

const delivery = (id: number, state: WebhookDelivery['state'] = 'pending'): WebhookDelivery => ({
  id,
  webhook: 'newPlant',
  resource: 'plants',
  tenant: 'shared',
  state,
  attempts: 0,
  createdAt: new Date(0).toISOString(),
});

function replica(namespace: string, history: number, leaseMs: number): SharedDeliveries {
  const made = createSharedDeliveries(connection, namespace, { history, leaseMs });
  opened.push(made);
  return made;
}

it("drops a stopped replica's waiting count when its lease ends, and keeps a live one's", async () => {
  const [live, killed] = [replica('w1', 10, 900), replica('w1', 10, 900)];
  live.changed(delivery(1), true, 1);
  killed.changed(delivery(1), true, 1);
  killed.changed(delivery(2), true, 2);
  await Promise.all([live.synced(), killed.synced()]);
  expect((await live.read()).pending).toBe(3);
  // "Killed": it stops renewing and never says its deliveries ended.
  killed.close();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = await live.read();
  expect(after.pending).toBe(1);
  expect(after.deliveries.map((each) => each.state)).toEqual(['pending', 'pending', 'pending']);
});

it('keeps the last `history` rows, numbered once, and does not bring back a trimmed one', async () => {
  const one = replica('w2', 2, 10_000);
  for (const id of [1, 2, 3]) one.changed(delivery(id), true, id);
  one.changed(delivery(1, 'delivered'), false, 2);
  one.changed(delivery(3, 'delivered'), false, 1);
  await one.synced();
  const { deliveries, pending } = await one.read();
  expect(deliveries.map((each) => `${each.id} ${each.state}`)).toEqual(['2 pending', '3 delivered']);
  expect(pending).toBe(1);
  expect(Number(await connection.client.hlen('w2:{webhooks}:deliveries'))).toBe(2);
});
