/**
 * Redis' memory is bounded by Redis itself (docs/redis.md): with `maxmemory` and the
 * `noeviction` policy a full Redis refuses writes, so creates get the store's 503 with Retry-After
 * (never a 200 for what was not stored, never an item silently evicted), what was stored stays
 * readable, and a reset frees room so creates work again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const MAXMEMORY = 4 * 1024 * 1024;
/** Creates tried at most: far more than 4 MiB holds with 2 KiB names. */
const MOST = 4000;
const BATCH = 16;
let redis: TestRedis;
let server: RunningServer;

beforeAll(async () => {
  redis = await startRedis(undefined, ['--maxmemory', String(MAXMEMORY), '--maxmemory-policy', 'noeviction']);
  server = await startServer({ port: 0, store: redis.url, journalSize: 0 });
});

afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

const create = (id: number) => send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: JSON.stringify({ id, name: 'n'.repeat(2048) }) });

it('answers 503 once Redis is full, keeps every acknowledged item, and creates again after a reset', async ({ annotate }) => {
  const stored: number[] = [];
  let refused: { id: number; answer: Awaited<ReturnType<typeof create>> } | undefined;
  for (let id = 1; id <= MOST && refused === undefined; id += BATCH) {
    const ids = Array.from({ length: BATCH }, (_, index) => id + index);
    const answers = await Promise.all(ids.map(create));
    for (const [index, answer] of answers.entries()) {
      if (answer.status === 200) stored.push(ids[index]!);
      else refused ??= { id: ids[index]!, answer };
    }
  }
  await annotate(`${stored.length} items of 2 KiB names stored before Redis (maxmemory ${MAXMEMORY} bytes) refused a write`);
  expect(stored.length).toBeGreaterThan(100);
  // A refused create was not stored behind its 503.
  expect((await send(`${server.url}/__control/resources/plants/items/${refused?.id}`)).status).toBe(404);
  const { answer: refusal } = refused ?? {};
  expect(refusal?.status).toBe(503);
  expect(refusal?.headers['retry-after']).toBe('1');
  expect(JSON.stringify(refusal?.json)).toContain('OOM');
  // Nothing acknowledged was evicted.
  for (const id of [stored[0]!, stored.at(-1)!, stored[Math.floor(stored.length / 2)]!])
    expect((await send(`${server.url}/__control/resources/plants/items/${id}`)).status).toBe(200);
  expect((await send(`${server.url}/__control/resources/plants/items`, { method: 'DELETE' })).status).toBe(204);
  expect((await create(MOST + 1)).status).toBe(200);
});
