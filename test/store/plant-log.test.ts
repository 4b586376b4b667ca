import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDurableStores } from '../../src/store/durable-stores.js';
import { encodeRecord } from '../../src/store/plant-log-record.js';
import { LOG_FILE, openPlantLog } from '../../src/store/plant-log.js';
import { createPlantStores, SHARED_TENANT, tenantOfToken } from '../../src/store/tenants.js';
import { instrumentedFile, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const BEYOND_DOUBLES = 9007199254740993n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SECRET_TOKEN = 'secret-token-never-on-disk';
const TOKEN_TENANT = tenantOfToken(SECRET_TOKEN);

describe('round trip', () => {
  it('rebuilds every tenant after creates, deletes and resets, ids exact', async () => {
    const dir = await tempDir();
    const first = await openPlantLog(dir);
    expect(first.recovery).toEqual({ plants: new Map(), skipped: [], records: 0 });
    const stores = createPlantStores(first.log.sinkFor);
    const shared = stores.forTenant(SHARED_TENANT);
    const token = stores.forTenant(TOKEN_TENANT);
    const other = stores.forTenant(tenantOfToken('other'));

    await shared.create({ id: BEYOND_DOUBLES, name: 'exact', tag: 'big' });
    await shared.create({ id: INT64_MIN, name: 'line\nbreak \u2028 "quoted" 🌱' });
    await shared.create({ id: INT64_MAX, name: 'max' });
    await shared.create({ id: 1n, name: 'deleted soon' });
    await token.create({ id: 1n, name: 'gone by reset' });
    await other.create({ id: 7n, name: 'tenant emptied' });
    expect(await shared.delete(1n)).toBe(true);
    await token.reset();
    await other.reset();
    await token.create({ id: INT64_MIN, name: 'after reset', tag: '' });
    await shared.create({ id: 1n, name: 're-created last' });
    await first.log.close();

    const text = await readFile(join(dir, LOG_FILE), 'utf8');
    expect(text).toContain('"id":"9007199254740993"');
    expect(text).toContain('"id":"-9223372036854775808"');
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text.split('\n')).toHaveLength(12); // 11 records, each ending in a newline

    const second = await openPlantLog(dir);
    expect(second.recovery.skipped).toEqual([]);
    expect(second.recovery.records).toBe(11);
    expect([...second.recovery.plants.keys()]).toEqual([SHARED_TENANT, TOKEN_TENANT]);
    expect(second.recovery.plants.get(SHARED_TENANT)).toEqual([
      { id: BEYOND_DOUBLES, name: 'exact', tag: 'big' },
      { id: INT64_MIN, name: 'line\nbreak \u2028 "quoted" 🌱' },
      { id: INT64_MAX, name: 'max' },
      { id: 1n, name: 're-created last' },
    ]);
    expect(second.recovery.plants.get(TOKEN_TENANT)).toEqual([{ id: INT64_MIN, name: 'after reset', tag: '' }]);
    await second.log.close();
  });

  it('restores stores from the recovery without writing the plants again', async () => {
    const dir = await tempDir();
    const first = await openPlantLog(dir);
    const before = await createDurableStores(first.log, first.recovery);
    await before.forTenant(SHARED_TENANT).seed([{ id: 2n, name: 'b' }, { id: 1n, name: 'a' }]);
    await first.log.close();
    const size = (await stat(join(dir, LOG_FILE))).size;

    const second = await openPlantLog(dir);
    const after = await createDurableStores(second.log, second.recovery);
    expect(after.forTenant(SHARED_TENANT).list()).toEqual([{ id: 2n, name: 'b' }, { id: 1n, name: 'a' }]);
    expect((await stat(join(dir, LOG_FILE))).size).toBe(size);
    // Restored ids are taken; later changes are logged.
    expect((await after.forTenant(SHARED_TENANT).create({ id: 2n, name: 'again' })).ok).toBe(false);
    expect(await after.forTenant(SHARED_TENANT).delete(1n)).toBe(true);
    await second.log.close();
    const third = await openPlantLog(dir);
    expect(third.recovery.plants.get(SHARED_TENANT)).toEqual([{ id: 2n, name: 'b' }]);
    await third.log.close();
  });

  it('creates the data dir when it is missing', async () => {
    const dir = join(await tempDir(), 'nested', 'data');
    const { log } = await openPlantLog(dir);
    await log.sinkFor(SHARED_TENANT)({ kind: 'reset' });
    await log.close();
    expect(await readFile(join(dir, LOG_FILE), 'utf8')).toBe('{"tenant":"shared","kind":"reset"}\n');
  });
});

describe('recovery after a crash', () => {
  async function logWithThreePlants(): Promise<{ dir: string; path: string; size: number }> {
    const dir = await tempDir();
    const { log } = await openPlantLog(dir);
    const store = createPlantStores(log.sinkFor).forTenant(SHARED_TENANT);
    for (const id of [1n, 2n, 3n]) await store.create({ id, name: `p${id}` });
    await log.close();
    const path = join(dir, LOG_FILE);
    return { dir, path, size: (await stat(path)).size };
  }

  it('skips a torn last record, cuts it off, and appends cleanly after it', async () => {
    const { dir, path, size } = await logWithThreePlants();
    await appendFile(path, '{"tenant":"shared","kind":"create","id":"4');

    const reopened = await openPlantLog(dir);
    expect(reopened.recovery.records).toBe(3);
    expect(reopened.recovery.plants.get(SHARED_TENANT)?.map((plant) => plant.id)).toEqual([1n, 2n, 3n]);
    expect(reopened.recovery.skipped).toHaveLength(1);
    expect(reopened.recovery.skipped[0]?.offset).toBe(size);
    expect(reopened.recovery.skipped[0]?.reason).toMatch(/torn last record.*no trailing newline/);
    expect((await stat(path)).size).toBe(size);

    await createPlantStores(reopened.log.sinkFor).forTenant(SHARED_TENANT).create({ id: 4n, name: 'p4' });
    await reopened.log.close();
    const again = await openPlantLog(dir);
    expect(again.recovery.skipped).toEqual([]);
    expect(again.recovery.plants.get(SHARED_TENANT)?.map((plant) => plant.id)).toEqual([1n, 2n, 3n, 4n]);
    await again.log.close();
  });

  it('treats a whole but unreadable last line as torn too', async () => {
    const { dir, path, size } = await logWithThreePlants();
    await appendFile(path, '{"tenant":"shared","kind":"cre\n');
    const reopened = await openPlantLog(dir);
    expect(reopened.recovery.skipped).toEqual([{ offset: size, reason: expect.stringMatching(/^torn last record.*not valid JSON/) }]);
    expect((await stat(path)).size).toBe(size);
    await reopened.log.close();
  });

  it('reports a corrupt record in the middle as damage, keeps the records around it, and leaves it in place', async () => {
    const dir = await tempDir();
    const path = join(dir, LOG_FILE);
    const good = encodeRecord(SHARED_TENANT, { kind: 'create', plant: { id: 1n, name: 'a' } });
    const garbage = 'this is not a record\n';
    const invalidUtf8 = Buffer.from([0xff, 0xfe, 0x0a]);
    const wrongShape = '{"tenant":"shared","kind":"create","id":12,"name":"number id"}\n';
    const later = encodeRecord(SHARED_TENANT, { kind: 'create', plant: { id: 2n, name: 'b' } });
    const bytes = Buffer.concat([Buffer.from(good + garbage), invalidUtf8, Buffer.from(wrongShape + later)]);
    await writeFile(path, bytes);

    const { log, recovery } = await openPlantLog(dir);
    expect(recovery.records).toBe(2);
    expect(recovery.plants.get(SHARED_TENANT)?.map((plant) => plant.id)).toEqual([1n, 2n]);
    const offsets = [good.length, good.length + garbage.length, good.length + garbage.length + invalidUtf8.length];
    expect(recovery.skipped.map((skip) => skip.offset)).toEqual(offsets);
    for (const skip of recovery.skipped) expect(skip.reason).toMatch(/^corrupt record in the middle of the log, not a torn write.*damaged/);
    expect(recovery.skipped[1]?.reason).toContain('not valid UTF-8');
    expect(recovery.skipped[2]?.reason).toContain('"id" is not a decimal integer string');
    expect((await stat(path)).size).toBe(bytes.length);
    await log.close();
  });
});

describe('durability', () => {
  it('rejects every change of a batch whose sync fails, undoes them, and keeps working after', async () => {
    const dir = await tempDir();
    const file = instrumentedFile();
    const { log } = await openPlantLog(dir, { openFile: file.openFile });
    const store = createPlantStores(log.sinkFor).forTenant(SHARED_TENANT);
    await store.create({ id: 1n, name: 'durable' });

    file.failSyncs = true;
    const batch = await Promise.allSettled([2n, 3n, 4n, 5n, 6n].map((id) => store.create({ id, name: `p${id}` })));
    expect(batch.map((result) => result.status)).toEqual(Array(5).fill('rejected'));
    for (const result of batch) {
      expect(result.status === 'rejected' && (result.reason as Error).message).toMatch(new RegExp(`fdatasync of ${escape(join(dir, LOG_FILE))} failed \\(EIO.*5 change\\(s\\)`));
    }
    expect(store.list().map((plant) => plant.id)).toEqual([1n]);

    file.failSyncs = false;
    await store.create({ id: 7n, name: 'after the failure' });
    await log.close();
    // The failed batch was written before its sync failed; it must have been cut off again.
    expect((await readFile(join(dir, LOG_FILE), 'utf8')).trim().split('\n')).toHaveLength(2);
    const reopened = await openPlantLog(dir);
    expect(reopened.recovery.skipped).toEqual([]);
    expect(reopened.recovery.plants.get(SHARED_TENANT)?.map((plant) => plant.id)).toEqual([1n, 7n]);
    await reopened.log.close();
  });

  it('commits 100 concurrent creates with far fewer than 100 syncs', async () => {
    const file = instrumentedFile();
    const { log } = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const store = createPlantStores(log.sinkFor).forTenant(SHARED_TENANT);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => store.create({ id: BigInt(i), name: `p${i}` })));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(file.counts.syncs).toBeLessThanOrEqual(2);
    await log.close();
  });

  it('batches the changes that arrive during a sync into one next write and sync', async () => {
    const file = instrumentedFile();
    let release = (): void => undefined;
    file.gate = new Promise((resolve) => (release = resolve));
    const { log } = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const stores = createPlantStores(log.sinkFor);
    const first = stores.forTenant(SHARED_TENANT).create({ id: 0n, name: 'first' });
    await file.syncStarted;
    const rest = Array.from({ length: 99 }, (_, i) => stores.forTenant(i % 2 ? SHARED_TENANT : TOKEN_TENANT).create({ id: BigInt(i + 1), name: 'later' }));
    release();
    await Promise.all([first, ...rest]);
    expect(file.counts).toEqual({ appends: 2, syncs: 2 });
    await log.close();
  });

  it('close waits for pending changes; later changes are refused and undone', async () => {
    const dir = await tempDir();
    const { log } = await openPlantLog(dir);
    const store = createPlantStores(log.sinkFor).forTenant(SHARED_TENANT);
    const pending = [1n, 2n, 3n].map((id) => store.create({ id, name: `p${id}` }));
    await log.close();
    await expect(Promise.all(pending)).resolves.toHaveLength(3);
    await expect(store.create({ id: 4n, name: 'too late' })).rejects.toThrow(/plant log .*plants\.jsonl is closed/);
    expect(store.get(4n)).toBeUndefined();
    const reopened = await openPlantLog(dir);
    expect(reopened.recovery.plants.get(SHARED_TENANT)).toHaveLength(3);
    await reopened.log.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
