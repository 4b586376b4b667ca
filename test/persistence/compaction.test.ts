/** Compaction of a tenant's log: snapshot + tail, crash-safe, never a change lost. */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../../src/store/plant-log-record.js';
import { openLogFile, openPlantLog, tenantLogPath, TENANTS_DIR } from '../../src/store/plant-log.js';
import { PLANTS, plantItem } from '../../src/store/plant-store.js';
import { TEMP_SUFFIX } from '../../src/store/tenant-log.js';
import { SHARED_TENANT } from '../../src/store/tenants.js';
import { durableStores, idsOf, plantsOver, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const BEYOND_DOUBLES = 9007199254740993n;

describe('compaction', () => {
  const plant = (id: bigint) => ({ id, name: `p${id}` });
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => BigInt(from + i));

  /** The shared tenant's store over its log, as durableBacking makes it, with the log at hand. */
  async function openShared(dir: string, compactAfterRecords = 10) {
    const log = await openPlantLog(dir, { compactAfterRecords });
    const opened = await log.openTenant(SHARED_TENANT, {});
    if (!opened) throw new Error('no tenant log');
    return { log, tenantLog: opened.log, store: plantsOver(opened), recovery: opened.recovery };
  }

  const linesOf = async (dir: string) => (await readFile(tenantLogPath(dir, SHARED_TENANT), 'utf8')).split('\n').filter(Boolean);

  it('rewrites a log whose dead records outweigh the live ones as the live plants, in creation order', async () => {
    const dir = await tempDir();
    const { log, store } = await openShared(dir);
    await Promise.all(range(0, 30).map((id) => store.create(plant(id))));
    await Promise.all(range(0, 25).map((id) => store.delete(id)));
    await store.create({ id: BEYOND_DOUBLES, name: 'after', tag: 'big' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await log.close(); // waits for a compaction under way
    const lines = await linesOf(dir);
    expect(lines.length).toBeLessThan(10);
    const reopened = await openShared(dir, 1_000);
    expect(reopened.recovery.skipped).toEqual([]);
    expect(reopened.recovery.plants).toEqual([...range(25, 30).map(plant), { id: BEYOND_DOUBLES, name: 'after', tag: 'big' }]);
    await reopened.log.close();
  });

  it('keeps the changes made while it runs (the tail), and appends to the new file after it', async () => {
    const dir = await tempDir();
    const { log, tenantLog, store } = await openShared(dir, 1_000_000);
    await Promise.all(range(0, 2_000).map((id) => store.create(plant(id))));
    await Promise.all(range(0, 1_500).map((id) => store.delete(id)));
    const compacting = tenantLog.compact();
    const during = Promise.all(range(2_000, 2_300).map((id) => store.create(plant(id))));
    await Promise.all([compacting, during]);
    expect(tenantLog.records).toBeLessThan(3_500);
    await store.create(plant(5_000n));
    await log.close();
    expect((await readdir(join(dir, TENANTS_DIR))).filter((name) => name.endsWith(TEMP_SUFFIX))).toEqual([]);
    const reopened = await openShared(dir, 1_000_000);
    expect(reopened.recovery.plants.map((p) => p.id)).toEqual([...range(1_500, 2_300), 5_000n]);
    expect(reopened.recovery.records).toBe(801);
    await reopened.log.close();
  });

  it('compacts a mostly dead log as soon as its tenant is loaded', async () => {
    const dir = await tempDir();
    await (await openPlantLog(dir)).close();
    const records = [
      ...range(0, 30).map((id) => encodeRecord(PLANTS, { kind: 'create', item: plantItem(plant(id)) })),
      encodeRecord(PLANTS, { kind: 'reset' }),
    ];
    await writeFile(tenantLogPath(dir, SHARED_TENANT), records.join('') + encodeRecord(PLANTS, { kind: 'create', item: plantItem(plant(99n)) }));
    const log = await openPlantLog(dir, { compactAfterRecords: 10 });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    expect(await idsOf(store)).toEqual([99n]);
    await log.close();
    expect(await linesOf(dir)).toEqual([encodeRecord(PLANTS, { kind: 'create', item: plantItem(plant(99n)) }).trim()]);
  });

  it('after a rename it cannot follow (the new file cannot be opened), refuses changes rather than writing to the old file', async () => {
    const dir = await tempDir();
    let opens = 0;
    const problems: string[] = [];
    const log = await openPlantLog(dir, {
      compactAfterRecords: 1_000_000,
      onProblem: (message) => problems.push(message),
      openFile: async (path) => {
        opens += 1;
        if (opens > 1) throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
        return openLogFile(path);
      },
    });
    const opened = await log.openTenant(SHARED_TENANT, {});
    if (!opened) throw new Error('no tenant log');
    const memory = { store: plantsOver(opened) };
    await Promise.all(range(0, 20).map((id) => memory.store.create(plant(id))));
    await opened.log.compact();
    expect(problems).toEqual([expect.stringMatching(/was compacted but could not be reopened \(EMFILE.*restart the server/)]);
    await expect(memory.store.create(plant(99n))).rejects.toThrow(/restart the server/);
    await log.close();
    const reopened = await openShared(dir);
    expect(reopened.recovery.plants.map((p) => p.id)).toEqual(range(0, 20));
    await reopened.log.close();
  });

  it('at start, removes the temp file of a compaction a crash cut short; the old log stays authoritative', async () => {
    const dir = await tempDir();
    const { log, store } = await openShared(dir);
    await store.create(plant(1n));
    await log.close();
    const temp = `${tenantLogPath(dir, SHARED_TENANT)}${TEMP_SUFFIX}`;
    await writeFile(temp, '{"tenant":"shared","kind":"create","id":"2","name":"half a snap');
    const reopened = await openShared(dir);
    expect(reopened.recovery.plants).toEqual([plant(1n)]);
    expect(await readdir(join(dir, TENANTS_DIR))).toEqual(['shared.jsonl']);
    await reopened.log.close();
  });
});
