/**
 * The journal shared by replicas: what one replica records, another shows after `synced()`;
 * credentials are masked before an entry leaves the process (Redis never holds a token); the
 * stream stays capped at about the journal size, and each replica's ring at exactly it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/journal/journal.js';
import { createSharedJournal } from '../../src/journal/shared-journal.js';
import { connectRedis, parseStoreTarget, type RedisConnection } from '../../src/store/redis/connection.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
let connection: RedisConnection;
const opened: { close(): void }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  connection = await connectRedis(parseStoreTarget(redis.url) as Extract<ReturnType<typeof parseStoreTarget>, { kind: 'redis' }>, { commandTimeoutMs: 2000 });
});

afterAll(async () => {
  for (const each of opened) each.close();
  await connection?.close();
  await redis?.stop();
});

const TOKEN = 'tok-never-in-redis';

function record(path: string): JournalRecord {
  return {
    arrivedAt: Date.now(),
    tenant: 'shared',
    operation: 'getPet',
    method: 'GET',
    path,
    query: 'api_key=also-secret',
    status: 200,
    durationMs: 1,
    request: { headers: { authorization: `Bearer ${TOKEN}`, cookie: 'sid=abc' }, body: '' },
    response: { headers: { 'content-type': 'application/json' }, body: '{}' },
  };
}

async function journal(namespace: string, capacity: number) {
  const made = await createSharedJournal(connection, namespace, capacity);
  opened.push(made);
  return made;
}

describe('the shared journal', () => {
  it('shows on one replica what another recorded, masked, in one sequence', async () => {
    const [one, other] = [await journal('j1', 100), await journal('j1', 100)];
    one.record(record('/pets/1'));
    other.record(record('/pets/2'));
    await one.synced?.();
    await other.synced?.();
    const seen = other.entries();
    expect(seen.map((entry) => entry.path)).toEqual(['/pets/1', '/pets/2']);
    expect(seen.map((entry) => entry.sequence)).toEqual([1, 2]);
    expect(seen[0]?.request.headers.authorization).toBe('Bearer ***');
    const raw = JSON.stringify(await connection.client.xrange('j1:journal', '-', '+'));
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain('abc');
    expect(raw).not.toContain('also-secret');
  });

  it('clears on every replica, and a replica started later reads the backlog', async () => {
    const one = await journal('j2', 100);
    one.record(record('/before'));
    one.clear();
    one.record(record('/after'));
    await one.synced?.();
    const later = await journal('j2', 100);
    expect(later.entries().map((entry) => entry.path)).toEqual(['/after']);
    expect(one.entries().map((entry) => entry.path)).toEqual(['/after']);
  });

  it('keeps the stream near the journal size and each ring at exactly it', async () => {
    const one = await journal('j3', 10);
    for (let index = 0; index < 600; index += 1) one.record(record(`/pets/${index}`));
    await one.synced?.();
    const length = Number(await connection.client.xlen('j3:journal'));
    // MAXLEN ~ trims whole stream nodes (100 entries each by default): about the size, never the 600.
    expect(length).toBeLessThanOrEqual(10 + 100);
    expect(one.entries()).toHaveLength(10);
    expect(one.entries().at(-1)?.path).toBe('/pets/599');
  });
});
