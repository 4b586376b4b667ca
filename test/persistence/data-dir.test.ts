import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { send } from '../support/server.js';
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
      const recovered = /data: (\d+) items recovered/.exec(second.output());
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

  it('brings every tenant back exactly as it left, never seeded again (--isolate-by-token --seed-data)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'plantstore-data-'));
    dirs.push(dataDir);
    const seedFile = join(dataDir, '..', `${dataDir.split('/').pop()}-seed.json`);
    await writeFile(seedFile, '[{"id":1001,"name":"Seed fern"},{"id":9007199254740993,"name":"Seed cactus"}]');
    const args = ['--isolate-by-token', '--data-dir', dataDir, '--seed-data', seedFile, '--log-level', 'warn'];
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const control = (token: string) => ({ 'plantstore-token': token });
    try {
      const first = await spawnServe(args);
      try {
        // "mine" replaces seed plant 1001 with its own; "emptied" resets away its seed plants.
        for (const token of ['mine', 'emptied']) {
          expect((await send(`${first.url}/plants`, { method: 'POST', headers: as(token), body: '{"id":5,"name":"first"}' })).status).toBe(200);
        }
        expect((await send(`${first.url}/__control/plants/1001`, { method: 'DELETE', headers: control('mine') })).status).toBe(204);
        const created = await send(`${first.url}/plants`, { method: 'POST', headers: as('mine'), body: '{"id":1001,"name":"Mine"}' });
        expect(created.status).toBe(200);
        expect((await send(`${first.url}/__control/plants`, { method: 'DELETE', headers: control('emptied') })).status).toBe(204);
        expect((await send(`${first.url}/plants`, { method: 'POST', headers: as('untouched'), body: '{"id":7,"name":"Other"}' })).status).toBe(200);
      } finally {
        first.child.kill('SIGTERM');
        expect(await exited(first.child)).toBe(0);
      }

      const second = await spawnServe(args);
      try {
        expect((await send(`${second.url}/__control/plants/1001`, { headers: control('mine') })).text).toBe('{"id":1001,"name":"Mine"}');
        const again = await send(`${second.url}/plants`, { method: 'POST', headers: as('mine'), body: '{"id":1001,"name":"Mine again"}' });
        expect(again.json).toMatchObject({ error: 409 });
        expect((await send(`${second.url}/__control/plants`, { headers: control('mine') })).text).toBe(
          '[{"id":9007199254740993,"name":"Seed cactus"},{"id":5,"name":"first"},{"id":1001,"name":"Mine"}]',
        );
        expect((await send(`${second.url}/__control/plants`, { headers: control('emptied') })).text).toBe('[]');
        expect((await send(`${second.url}/__control/plants`, { headers: control('untouched') })).text).toBe(
          '[{"id":1001,"name":"Seed fern"},{"id":9007199254740993,"name":"Seed cactus"},{"id":7,"name":"Other"}]',
        );
        // A tenant first seen now is new: it starts from the seed.
        expect((await send(`${second.url}/plants`, { method: 'POST', headers: as('newcomer'), body: '{"id":1001,"name":"x"}' })).json).toMatchObject({
          error: 409,
        });
      } finally {
        second.child.kill('SIGTERM');
        expect(await exited(second.child)).toBe(0);
      }
    } finally {
      await rm(seedFile, { force: true });
    }
  }, 30_000);
});
