import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../../src/store/plant-log-record.js';
import { LEGACY_LOG_FILE, openPlantLog, tenantLogPath, TENANTS_DIR } from '../../src/store/plant-log.js';
import { PLANTS, plantItem } from '../../src/store/plant-store.js';
import { SHARED_TENANT, tenantOfToken } from '../../src/store/tenants.js';
import { durableStores, idsOf, instrumentedFile, plantSeed, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const BEYOND_DOUBLES = 9007199254740993n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SECRET_TOKEN = 'secret-token-never-on-disk';
const TOKEN_TENANT = tenantOfToken(SECRET_TOKEN);
const OTHER_TENANT = tenantOfToken('other');

describe('round trip', () => {
  it('rebuilds every tenant from its own file after creates, deletes and resets, ids exact', async () => {
    const dir = await tempDir();
    const first = await openPlantLog(dir);
    const stores = durableStores(first);
    const shared = await stores.forTenant(SHARED_TENANT);
    const token = await stores.forTenant(TOKEN_TENANT);
    const other = await stores.forTenant(OTHER_TENANT);

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
    await first.close();

    const files = await readdir(join(dir, TENANTS_DIR));
    expect(files.sort()).toEqual([`${OTHER_TENANT.replace(':', '-')}.jsonl`, 'shared.jsonl', `${TOKEN_TENANT.replace(':', '-')}.jsonl`].sort());
    const text = await readFile(tenantLogPath(dir, SHARED_TENANT), 'utf8');
    expect(text).toContain('"id":"9007199254740993"');
    expect(text).toContain('"id":"-9223372036854775808"');
    expect(text.split('\n')).toHaveLength(7); // 6 records, each ending in a newline
    for (const name of files) expect(await readFile(join(dir, TENANTS_DIR, name), 'utf8')).not.toContain(SECRET_TOKEN);

    const second = await openPlantLog(dir);
    const shared2 = await second.openTenant(SHARED_TENANT, undefined);
    expect(shared2?.recovery.skipped).toEqual([]);
    expect(shared2?.recovery.records).toBe(6);
    expect(shared2?.recovery.plants).toEqual([
      { id: BEYOND_DOUBLES, name: 'exact', tag: 'big' },
      { id: INT64_MIN, name: 'line\nbreak \u2028 "quoted" 🌱' },
      { id: INT64_MAX, name: 'max' },
      { id: 1n, name: 're-created last' },
    ]);
    expect((await second.openTenant(TOKEN_TENANT, undefined))?.recovery.plants).toEqual([{ id: INT64_MIN, name: 'after reset', tag: '' }]);
    // An emptied tenant still exists: it is not new, so it is never seeded again.
    const emptied = await second.openTenant(OTHER_TENANT, plantSeed([{ id: 99n, name: 'seed' }]));
    expect(emptied).toMatchObject({ isNew: false, recovery: { plants: [] } });
    expect(await second.openTenant(tenantOfToken('never seen'), undefined)).toBeUndefined();
    await second.close();
  });

  it('restores stores from the log without writing the plants again', async () => {
    const dir = await tempDir();
    const first = await openPlantLog(dir);
    await (
      await durableStores(first).forTenant(SHARED_TENANT)
    ).seed([
      { id: 2n, name: 'b' },
      { id: 1n, name: 'a' },
    ]);
    await first.close();
    const path = tenantLogPath(dir, SHARED_TENANT);
    const size = (await stat(path)).size;

    const second = await openPlantLog(dir);
    const after = await durableStores(second).forTenant(SHARED_TENANT);
    expect((await after.list({ limit: 10 })).plants).toEqual([
      { id: 2n, name: 'b' },
      { id: 1n, name: 'a' },
    ]);
    expect((await stat(path)).size).toBe(size);
    // Restored ids are taken; later changes are logged.
    expect((await after.create({ id: 2n, name: 'again' })).ok).toBe(false);
    expect(await after.delete(1n)).toBe(true);
    await second.close();
    const third = await openPlantLog(dir);
    expect((await third.openTenant(SHARED_TENANT, undefined))?.recovery.plants).toEqual([{ id: 2n, name: 'b' }]);
    await third.close();
  });

  it('creates the data dir when it is missing, and a new tenant file whole with its first plants', async () => {
    const dir = join(await tempDir(), 'nested', 'data');
    const log = await openPlantLog(dir);
    const opened = await log.openTenant(SHARED_TENANT, plantSeed([{ id: 1n, name: 'seed' }]));
    expect(opened?.isNew).toBe(true);
    await opened?.log.sinkFor(PLANTS)({ kind: 'reset' });
    await log.close();
    // The file's tenant, the default collection (plants) and a key the "id" field holds are not written: a record is as short as it can be.
    expect(await readFile(tenantLogPath(dir, SHARED_TENANT), 'utf8')).toBe(
      '{"kind":"allocate","value":"1"}\n' + '{"kind":"create","fields":{"id":1,"name":"seed"}}\n' + '{"kind":"reset"}\n',
    );
  });

  it('moves a legacy single log into per-tenant files, emptied tenants included', async () => {
    const dir = await tempDir();
    const legacy = [
      `{"tenant":"shared","kind":"create","id":"${BEYOND_DOUBLES}","name":"kept"}\n`,
      `{"tenant":"${TOKEN_TENANT}","kind":"create","id":"1","name":"reset away"}\n`,
      `{"tenant":"${TOKEN_TENANT}","kind":"reset"}\n`,
    ].join('');
    await writeFile(join(dir, LEGACY_LOG_FILE), legacy);
    const log = await openPlantLog(dir);
    expect((await log.openTenant(SHARED_TENANT, undefined))?.recovery.plants).toEqual([{ id: BEYOND_DOUBLES, name: 'kept' }]);
    expect(await log.openTenant(TOKEN_TENANT, plantSeed([{ id: 5n, name: 'seed' }]))).toMatchObject({ isNew: false, recovery: { plants: [] } });
    await log.close();
    expect(await readFile(join(dir, `${LEGACY_LOG_FILE}.migrated`), 'utf8')).toBe(legacy);
  });
  it('reads a tenant log written by the previous version (every record naming its tenant and collection) and appends short records after it', async () => {
    const dir = await tempDir();
    await (await openPlantLog(dir)).close();
    const path = tenantLogPath(dir, TOKEN_TENANT);
    const previous = [
      `{"tenant":"${TOKEN_TENANT}","collection":"plants","kind":"create","id":"${BEYOND_DOUBLES}","fields":{"id":"${BEYOND_DOUBLES}","name":"big"},"bigints":["/id"]}\n`,
      `{"tenant":"${TOKEN_TENANT}","collection":"plants","kind":"create","id":"2","fields":{"id":2,"name":"gone"}}\n`,
      `{"tenant":"${TOKEN_TENANT}","collection":"plants","kind":"delete","id":"2"}\n`,
      `{"tenant":"${TOKEN_TENANT}","collection":"pets","kind":"create","key":"rex","fields":{"name":"Rex","chip":"${BEYOND_DOUBLES}"},"bigints":["/chip"]}\n`,
    ].join('');
    await writeFile(path, previous);
    const log = await openPlantLog(dir);
    const opened = await log.openTenant(TOKEN_TENANT, undefined);
    expect(opened?.recovery).toMatchObject({ records: 4, skipped: [], plants: [{ id: BEYOND_DOUBLES, name: 'big' }] });
    expect(opened?.tables.get('pets')?.order).toEqual([{ id: 'rex', fields: { name: 'Rex', chip: BEYOND_DOUBLES } }]);
    await opened?.log.sinkFor('pets')({ kind: 'delete', id: 'rex' });
    await log.close();
    expect(await readFile(path, 'utf8')).toBe(`${previous}{"collection":"pets","kind":"delete","key":"rex"}\n`);
  });
});

describe('recovery after a crash', () => {
  async function logWithThreePlants(): Promise<{ dir: string; path: string; size: number }> {
    const dir = await tempDir();
    const log = await openPlantLog(dir);
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    for (const id of [1n, 2n, 3n]) await store.create({ id, name: `p${id}` });
    await log.close();
    const path = tenantLogPath(dir, SHARED_TENANT);
    return { dir, path, size: (await stat(path)).size };
  }

  it('skips a torn last record, cuts it off, and appends cleanly after it', async () => {
    const { dir, path, size } = await logWithThreePlants();
    await appendFile(path, '{"tenant":"shared","kind":"create","id":"4');

    const reopened = await openPlantLog(dir);
    const opened = await reopened.openTenant(SHARED_TENANT, undefined);
    expect(opened?.recovery.records).toBe(3);
    expect(opened?.recovery.plants.map((plant) => plant.id)).toEqual([1n, 2n, 3n]);
    expect(opened?.recovery.skipped).toHaveLength(1);
    expect(opened?.recovery.skipped[0]?.offset).toBe(size);
    expect(opened?.recovery.skipped[0]?.reason).toMatch(/torn last record.*no trailing newline/);
    expect((await stat(path)).size).toBe(size);
    await opened?.log.close();

    await (await durableStores(reopened).forTenant(SHARED_TENANT)).create({ id: 4n, name: 'p4' });
    await reopened.close();
    const again = await openPlantLog(dir);
    const reread = await again.openTenant(SHARED_TENANT, undefined);
    expect(reread?.recovery.skipped).toEqual([]);
    expect(reread?.recovery.plants.map((plant) => plant.id)).toEqual([1n, 2n, 3n, 4n]);
    await again.close();
  });

  it('treats a whole but unreadable last line as torn too', async () => {
    const { dir, path, size } = await logWithThreePlants();
    await appendFile(path, '{"tenant":"shared","kind":"cre\n');
    const reopened = await openPlantLog(dir);
    expect((await reopened.openTenant(SHARED_TENANT, undefined))?.recovery.skipped).toEqual([
      { offset: size, reason: expect.stringMatching(/^torn last record.*not valid JSON/) },
    ]);
    expect((await stat(path)).size).toBe(size);
    await reopened.close();
  });

  it('reports a corrupt record in the middle as damage, keeps the records around it, and leaves it in place', async () => {
    const dir = await tempDir();
    await (await openPlantLog(dir)).close();
    const path = tenantLogPath(dir, SHARED_TENANT);
    const good = encodeRecord(PLANTS, { kind: 'create', item: plantItem({ id: 1n, name: 'a' }) });
    const garbage = 'this is not a record\n';
    const invalidUtf8 = Buffer.from([0xff, 0xfe, 0x0a]);
    const wrongShape = '{"tenant":"shared","kind":"create","id":12,"name":"number id"}\n';
    const later = encodeRecord(PLANTS, { kind: 'create', item: plantItem({ id: 2n, name: 'b' }) });
    const bytes = Buffer.concat([Buffer.from(good + garbage), invalidUtf8, Buffer.from(wrongShape + later)]);
    await writeFile(path, bytes);

    const log = await openPlantLog(dir);
    const recovery = (await log.openTenant(SHARED_TENANT, undefined))?.recovery;
    expect(recovery?.records).toBe(2);
    expect(recovery?.plants.map((plant) => plant.id)).toEqual([1n, 2n]);
    const offsets = [good.length, good.length + garbage.length, good.length + garbage.length + invalidUtf8.length];
    expect(recovery?.skipped.map((skip) => skip.offset)).toEqual(offsets);
    for (const skip of recovery?.skipped ?? []) expect(skip.reason).toMatch(/^corrupt record in the middle of the log, not a torn write.*damaged/);
    expect(recovery?.skipped[1]?.reason).toContain('not valid UTF-8');
    expect(recovery?.skipped[2]?.reason).toContain('"id" is not a decimal integer string');
    expect((await stat(path)).size).toBe(bytes.length);
    await log.close();
  });
});

describe('reading a big log a chunk at a time', () => {
  it('reads thousands of records, and still refuses a line holding two records', async () => {
    const dir = await tempDir();
    await (await openPlantLog(dir)).close();
    const create = (id: bigint) => encodeRecord(PLANTS, { kind: 'create', item: plantItem({ id, name: `p${id}` }) });
    const many = Array.from({ length: 20_000 }, (_, i) => create(BEYOND_DOUBLES + BigInt(i))).join('');
    const twoInOne = `${create(1n).trim()},${create(2n)}`;
    await writeFile(tenantLogPath(dir, SHARED_TENANT), many + twoInOne + create(3n));
    const log = await openPlantLog(dir);
    const recovery = (await log.openTenant(SHARED_TENANT, undefined))?.recovery;
    expect(recovery?.records).toBe(20_001);
    expect(recovery?.plants.at(0)?.id).toBe(BEYOND_DOUBLES);
    expect(recovery?.plants.at(-1)?.id).toBe(3n);
    expect(recovery?.plants.some((plant) => plant.id === 1n || plant.id === 2n)).toBe(false);
    expect(recovery?.skipped).toEqual([{ offset: Buffer.byteLength(many), reason: expect.stringMatching(/^corrupt record in the middle/) }]);
    await log.close();
  });
});

describe('durability', () => {
  it('rejects every change of a batch whose sync fails, stores none of them, and keeps working after', async () => {
    const dir = await tempDir();
    const file = instrumentedFile();
    const log = await openPlantLog(dir, { openFile: file.openFile });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    await store.create({ id: 1n, name: 'durable' });

    file.failSyncs = true;
    const batch = await Promise.allSettled([2n, 3n, 4n, 5n, 6n].map((id) => store.create({ id, name: `p${id}` })));
    expect(batch.map((result) => result.status)).toEqual(Array(5).fill('rejected'));
    for (const result of batch) {
      expect(result.status === 'rejected' && (result.reason as Error).message).toMatch(
        new RegExp(`fdatasync of ${escape(tenantLogPath(dir, SHARED_TENANT))} failed \\(EIO.*5 change\\(s\\)`),
      );
    }
    expect(await idsOf(store)).toEqual([1n]);

    file.failSyncs = false;
    await store.create({ id: 7n, name: 'after the failure' });
    await log.close();
    // The failed batch was written before its sync failed; it must have been cut off again.
    expect((await readFile(tenantLogPath(dir, SHARED_TENANT), 'utf8')).trim().split('\n')).toHaveLength(2);
    const reopened = await openPlantLog(dir);
    const opened = await reopened.openTenant(SHARED_TENANT, undefined);
    expect(opened?.recovery.skipped).toEqual([]);
    expect(opened?.recovery.plants.map((plant) => plant.id)).toEqual([1n, 7n]);
    await reopened.close();
  });

  it('commits 100 concurrent creates with far fewer than 100 syncs', async () => {
    const file = instrumentedFile();
    const log = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    const before = file.counts.syncs;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => store.create({ id: BigInt(i), name: `p${i}` })));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(file.counts.syncs - before).toBeLessThanOrEqual(2);
    await log.close();
  });

  it('batches the changes that arrive during a sync into one next write and sync', async () => {
    const file = instrumentedFile();
    const log = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    let release = (): void => undefined;
    file.gate = new Promise((resolve) => (release = resolve));
    const first = store.create({ id: 0n, name: 'first' });
    await file.syncStarted;
    const rest = Array.from({ length: 99 }, (_, i) => store.create({ id: BigInt(i + 1), name: 'later' }));
    release();
    await Promise.all([first, ...rest]);
    expect(file.counts).toEqual({ appends: 2, syncs: 2 });
    await log.close();
  });

  it('close waits for pending changes; later changes are refused and not stored', async () => {
    const dir = await tempDir();
    const log = await openPlantLog(dir);
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    const pending = [1n, 2n, 3n].map((id) => store.create({ id, name: `p${id}` }));
    await log.close();
    await expect(Promise.all(pending)).resolves.toHaveLength(3);
    await expect(store.create({ id: 4n, name: 'too late' })).rejects.toThrow(/plant log .*shared\.jsonl is closed/);
    expect(await store.get(4n)).toBeUndefined();
    const reopened = await openPlantLog(dir);
    expect((await reopened.openTenant(SHARED_TENANT, undefined))?.recovery.plants).toHaveLength(3);
    await reopened.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
