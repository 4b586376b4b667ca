/** Tenants held in memory under a cap, with a data dir behind them. */
import { describe, expect, it } from 'vitest';
import { openPlantLog } from '../../src/store/plant-log.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { durableStores, instrumentedFile, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const BEYOND_DOUBLES = 9007199254740993n;
const TOKEN_TENANT = tenantOfToken('secret-token-never-on-disk');
const OTHER_TENANT = tenantOfToken('other');

describe('tenants capped in memory', () => {
  it('never evicts a tenant with a change in flight; an evicted tenant reloads from its file', async () => {
    const file = instrumentedFile();
    const log = await openPlantLog(await tempDir(), { openFile: file.openFile });
    const stores = durableStores(log, 1);
    const first = await stores.forTenant(TOKEN_TENANT);
    let release = (): void => undefined;
    file.gate = new Promise((resolve) => (release = resolve));
    const pending = first.create({ id: BEYOND_DOUBLES, name: 'in flight' });
    await file.syncStarted;
    await stores.forTenant(OTHER_TENANT);
    // Over the cap of 1, but the first tenant is mid-change: both stay.
    expect(stores.tenants()).toEqual([TOKEN_TENANT, OTHER_TENANT]);
    file.gate = undefined;
    release();
    expect((await pending).ok).toBe(true);
    await stores.forTenant(tenantOfToken('third'));
    expect(stores.tenants()).toEqual([tenantOfToken('third')]);
    expect(stores.counts()).toEqual({ tenants: 1, items: 0 });
    // The handle still works: it brings the tenant back, with its plant.
    expect(await first.get(BEYOND_DOUBLES)).toEqual({ id: BEYOND_DOUBLES, name: 'in flight' });
    expect(stores.tenants()).toEqual([TOKEN_TENANT]);
    expect(stores.counts()).toEqual({ tenants: 1, items: 1 });
    await log.close();
  });
});
