/** A 409, a 404 or a reset answered by a durable store is true of its final state. */
import { describe, expect, it } from 'vitest';
import { openPlantLog } from '../../src/store/plant-log.js';
import { SHARED_TENANT } from '../../src/store/tenants.js';
import { durableStores, idsOf, instrumentedFile, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();

describe('a refusal is true when it is given', () => {
  /** A store whose log holds the first sync until `release`, and fails the next `fails` syncs. */
  async function heldStore(fails: number) {
    const file = instrumentedFile();
    const dir = await tempDir();
    const log = await openPlantLog(dir, { openFile: file.openFile });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    let release = (): void => undefined;
    file.gate = new Promise((resolve) => (release = resolve));
    file.failNext = fails;
    return { dir, log, store, file, release };
  }

  it('a create of an id whose create is still syncing waits for it: the first failed, so the second stores it', async () => {
    const { log, store, file, release } = await heldStore(1);
    const first = store.create({ id: 5n, name: 'first' });
    await file.syncStarted;
    const second = store.create({ id: 5n, name: 'second' });
    file.gate = undefined;
    release();
    await expect(first).rejects.toThrow(/fdatasync .* failed/);
    expect(await second).toEqual({ ok: true, plant: { id: 5n, name: 'second' } });
    expect(await store.get(5n)).toEqual({ id: 5n, name: 'second' });
    await log.close();
  });

  it('a create of an id whose create is still syncing waits for it: the first succeeded, so the second is a duplicate', async () => {
    const { log, store, file, release } = await heldStore(0);
    const first = store.create({ id: 5n, name: 'first' });
    await file.syncStarted;
    const second = store.create({ id: 5n, name: 'second' });
    file.gate = undefined;
    release();
    expect((await first).ok).toBe(true);
    expect(await second).toMatchObject({ ok: false, existing: { id: 5n, name: 'first' } });
    await log.close();
  });

  it('a delete of a plant whose create then fails finds nothing (404), and nothing comes back', async () => {
    const { dir, log, store, file, release } = await heldStore(1);
    const create = store.create({ id: 6n, name: 'never stored' });
    await file.syncStarted;
    const deleted = store.delete(6n);
    file.gate = undefined;
    release();
    await expect(create).rejects.toThrow(/failed/);
    expect(await deleted).toBe(false);
    expect(await store.get(6n)).toBeUndefined();
    await log.close();
    const reopened = await openPlantLog(dir);
    expect((await reopened.openTenant(SHARED_TENANT, undefined))?.recovery.plants).toEqual([]);
    await reopened.close();
  });

  it('a reset in the same failed batch as a create brings nothing back in memory', async () => {
    const file = instrumentedFile();
    const log = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const store = await durableStores(log).forTenant(SHARED_TENANT);
    await store.create({ id: 1n, name: 'durable' });
    // Both go into one batch, whose sync fails.
    file.failNext = 1;
    const create = store.create({ id: 7n, name: 'in the failing batch' });
    const reset = store.reset();
    await expect(create).rejects.toThrow(/failed/);
    await expect(reset).rejects.toThrow(/failed/);
    // The reset was not made and the create was not stored: exactly the durable plants remain.
    expect(await idsOf(store)).toEqual([1n]);
    expect(await store.get(7n)).toBeUndefined();
    await log.close();
  });
});
