/**
 * The Redis ItemStore answers as the memory store does (item-store.ts's contract): the same
 * operations on both give the same results, pages and cursors included, and what only a shared
 * store can show (a second handle on the same keys, as another replica has) agrees at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item, ItemStore } from '../../src/store/item-store.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { connectRedis, parseStoreTarget, type RedisConnection } from '../../src/store/redis/connection.js';
import { createRedisItems, type CollectionKeys } from '../../src/store/redis/redis-items.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
let connection: RedisConnection;
let collections = 0;

beforeAll(async () => {
  redis = await startRedis();
  connection = await connectRedis(parseStoreTarget(redis.url) as Extract<ReturnType<typeof parseStoreTarget>, { kind: 'redis' }>, { commandTimeoutMs: 2000 });
});

afterAll(async () => {
  await connection?.close();
  await redis?.stop();
});

function keys(): CollectionKeys {
  const tag = `test:{c${(collections += 1)}}`;
  return [`${tag}:items`, `${tag}:order`, `${tag}:sequence`, `${tag}:allocated`, `${tag}:seeded`, 'test:counts'];
}

const item = (id: bigint | string, fields: Record<string, unknown> = {}): Item => ({
  id,
  fields: { id: typeof id === 'bigint' && id <= 2n ** 53n ? Number(id) : id, ...fields } as Item['fields'],
});

/** The same steps on a store; what each answered, as plain data. */
async function script(store: ItemStore): Promise<unknown[]> {
  const seen: unknown[] = [];
  // `resident` says how a store holds its items (the memory store's own objects), not what it answers.
  const note = (value: unknown) =>
    seen.push(
      value === undefined
        ? 'undefined'
        : JSON.parse(JSON.stringify(value, (key, each) => (key === 'resident' ? undefined : typeof each === 'bigint' ? `${each}n` : each))),
    );
  for (let n = 1n; n <= 12n; n += 1n) note(await store.create(item(n, { tag: n % 3n === 0n ? 'three' : 'other' })));
  note(await store.create(item(5n, { tag: 'again' })));
  note(await store.create(item('5', { tag: 'text key' })));
  note(await store.create(item(2n ** 63n - 1n, { tag: 'max' })));
  note(await store.delete(4n));
  note(await store.delete(4n));
  note(await store.update(6n, (current) => ({ id: current.id, fields: { ...current.fields, tag: 'changed' } })));
  note(await store.update(4n, (current) => current));
  note(await store.replace(item(7n, { tag: 'replaced' })));
  note(await store.replace(item(400n)));
  note(await store.get('5'));
  note(await store.get(2n ** 63n - 1n));
  note(await store.seed([item(3n), item(900n, { tag: 'seeded' }), item(901n)]));
  note(await store.allocate());
  note(await store.count());
  // Pages: plain, with a cursor, with skip, with a filter.
  let page = await store.list({ limit: 4 });
  note(page);
  for (let guard = 0; page.next !== undefined && guard < 10; guard += 1) note((page = await store.list({ limit: 4, cursor: page.next })));
  note(await store.list({ limit: 3, skip: 2 }));
  note(await store.list({ limit: 2, where: { tag: 'three' } }));
  note(await store.list({ limit: 50, where: { tag: 'none' } }));
  await store.reset();
  note(await store.count());
  note(await store.list({ limit: 5 }));
  note(await store.allocate());
  note(await store.create(item(1n)));
  note(await store.list({ limit: 5 }));
  return seen;
}

describe('the Redis item store', () => {
  it('answers every operation as the memory store does', async () => {
    const memory = await script(createMemoryStore().store);
    const shared = await script(createRedisItems(connection, keys()));
    expect(shared).toEqual(memory);
  });

  it('lets one handle see at once what another handle on the same keys changed (two replicas)', async () => {
    const same = keys();
    const [one, other] = [createRedisItems(connection, same), createRedisItems(connection, same)];
    expect((await one.create(item(1n))).ok).toBe(true);
    expect((await other.create(item(1n))).ok).toBe(false);
    expect(await other.get(1n)).toEqual(item(1n));
    const allocated = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? one : other).allocate()));
    expect(new Set(allocated.map(String)).size).toBe(20);
  });

  it('applies concurrent updates of one item from two handles without losing one', async () => {
    const same = keys();
    const [one, other] = [createRedisItems(connection, same), createRedisItems(connection, same)];
    await one.create(item(1n, { count: 0 }));
    const bump = (store: ItemStore) =>
      store.update(1n, (current) => ({ id: current.id, fields: { ...current.fields, count: (current.fields.count as number) + 1 } }));
    await Promise.all(Array.from({ length: 30 }, (_, index) => bump(index % 2 === 0 ? one : other)));
    expect((await one.get(1n))?.fields.count).toBe(30);
  });

  it('takes a seed once per store with seedOnce, whoever offers it again', async () => {
    const same = keys();
    const [one, other] = [createRedisItems(connection, same), createRedisItems(connection, same)];
    expect(await one.seedOnce([item(1n), item(2n)])).toBe(true);
    await one.delete(1n);
    expect(await other.seedOnce([item(1n), item(2n)])).toBe(false);
    expect(await other.get(1n)).toBeUndefined();
    // Allocation moved past the seeded ids, exactly beyond 2^53 too.
    expect(await other.seed([item(2n ** 62n)])).toEqual({ created: 1, duplicates: [] });
    expect(await one.allocate()).toBe(2n ** 62n + 1n);
  });
});
