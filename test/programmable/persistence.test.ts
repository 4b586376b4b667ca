import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnServe } from './cli-server.js';

const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };
const BURST = 4_000;
const KILL_AFTER_ACKS = 600;
const CONCURRENCY = 32;

describe('--data-dir over HTTP', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('keeps every plant that got a 200 when the server is SIGKILLed mid-burst', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'plantstore-data-'));
    dirs.push(dataDir);
    const first = await spawnServe(['--data-dir', dataDir, '--log-level', 'warn']);
    const pool = new Pool(first.url, { connections: CONCURRENCY });
    const acknowledged: bigint[] = [];
    let next = 0;
    let killed = false;

    // Ids straddle 2^53 so recovery must keep them exact, not just present.
    const idOf = (n: number) => 9007199254740000n + BigInt(n) * 7n;
    const worker = async () => {
      while (next < BURST && !killed) {
        const id = idOf(next++);
        try {
          const response = await pool.request({ path: '/plants', method: 'POST', headers: HEADERS, body: `{"name":"p${id}","id":${id}}` });
          await response.body.text();
          if (response.statusCode === 200) acknowledged.push(id);
          if (acknowledged.length >= KILL_AFTER_ACKS && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // Requests in flight when the server dies fail; they were never acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await exited(first.child);
    await pool.destroy();
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    const second = await spawnServe(['--data-dir', dataDir, '--log-level', 'info']);
    try {
      const recovered = /data: (\d+) plants recovered/.exec(second.output());
      expect(Number(recovered?.[1])).toBeGreaterThanOrEqual(acknowledged.length);
      // Every acknowledged id is stored: creating it again is refused as a duplicate.
      const check = new Pool(second.url, { connections: 8 });
      const missing: bigint[] = [];
      for (const id of acknowledged) {
        const response = await check.request({ path: '/plants', method: 'POST', headers: HEADERS, body: `{"name":"again","id":${id}}` });
        const body = (await response.body.json()) as { error?: number };
        if (body.error !== 409) missing.push(id);
      }
      await check.destroy();
      expect(missing).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
    }
  }, 60_000);

  it('refuses a second server on the same data dir, naming the holder', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'plantstore-data-'));
    dirs.push(dataDir);
    const holder = await spawnServe(['--data-dir', dataDir, '--log-level', 'warn']);
    try {
      await expect(spawnServe(['--data-dir', dataDir])).rejects.toThrow(/in use by pid/);
    } finally {
      holder.child.kill('SIGTERM');
      await exited(holder.child);
    }
  });
});
