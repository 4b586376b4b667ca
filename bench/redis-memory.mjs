// @ts-check
// What an item costs in Redis (docs/redis.md): starts its own redis-server (temp dir, free loopback
// port, no persistence), stores N small items (a Plant: id, name, tag) through the shared store,
// and prints Redis' used_memory per item. A measurement, not a test.
//
//   npm run build && node bench/redis-memory.mjs [N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, sleep } from './lib/children.mjs';

const { connectRedis, parseStoreTarget } = await import('../dist/src/store/redis/connection.js');
const { createRedisItems } = await import('../dist/src/store/redis/redis-items.js');

const count = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'plantstore-redis-memory-'));
const port = await freePort();
const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
/** @typedef {import('../dist/src/store/redis/connection.js').StoreTarget} StoreTarget */
try {
  /** @type {import('../dist/src/store/redis/connection.js').RedisConnection | undefined} */
  let connection;
  for (let tries = 0; connection === undefined; tries += 1) {
    // A redis:// address parses to a redis target.
    const target = /** @type {Extract<StoreTarget, { kind: 'redis' }>} */ (parseStoreTarget(`redis://127.0.0.1:${port}`));
    connection = await connectRedis(target, { commandTimeoutMs: 5000 }).catch((error) => {
      if (tries > 50) throw error;
      return sleep(100).then(() => undefined);
    });
  }
  const used = async () => Number(/used_memory:(\d+)/.exec(await connection.client.info('memory'))?.[1]);
  const before = await used();
  const store = createRedisItems(connection, ['m:{p}:items', 'm:{p}:order', 'm:{p}:sequence', 'm:{p}:allocated', 'm:{p}:seeded', 'm:counts']);
  for (let base = 0; base < count; base += 500) {
    const batch = Array.from({ length: Math.min(500, count - base) }, (_, k) => base + k);
    await Promise.all(batch.map((n) => store.create({ id: BigInt(1_000_000 + n), fields: { id: 1_000_000 + n, name: `Plant ${n}`, tag: 'aroid' } })));
  }
  const grown = (await used()) - before;
  console.log(`${await store.count()} items: Redis used_memory +${grown} bytes, ${(grown / count).toFixed(0)} bytes per item`);
  await connection.close();
} finally {
  server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
