import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { durableBacking, liveStateOf } from '../../src/store/durable-stores.js';
import type { ResourceStores } from '../../src/store/item-store.js';
import { createMemoryTenant } from '../../src/store/memory-tenant.js';
import { openLogFile, type LogFile, type OpenedTenant, type PlantLog } from '../../src/store/plant-log.js';
import { PLANTS, plantItem, type Plant } from '../../src/store/plant-store.js';
import { plantsIn, type Plants } from '../support/plants.js';
import { createResourceStores, type SeedItems, type TenantId } from '../../src/store/tenants.js';

/** A fresh directory under the OS temp dir, removed after the test. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plant-log-'));
    made.push(dir);
    return dir;
  };
}

/** The real journal, with every append and sync counted; syncs fail or wait while told to. */
export interface InstrumentedFile {
  readonly counts: { appends: number; syncs: number };
  failSyncs: boolean;
  /** Fails only this many syncs from now, then lets them pass again. */
  failNext: number;
  /** While set, each sync waits for it; `syncStarted` resolves as one begins. */
  gate: Promise<void> | undefined;
  syncStarted: Promise<void>;
  readonly openFile: (path: string) => Promise<LogFile>;
}

export function instrumentedFile(): InstrumentedFile {
  let announce = (): void => undefined;
  const instrumented: InstrumentedFile = {
    counts: { appends: 0, syncs: 0 },
    failSyncs: false,
    failNext: 0,
    gate: undefined,
    syncStarted: Promise.resolve(),
    openFile: async (path) => {
      const real = await openLogFile(path);
      return {
        ...real,
        async append(data) {
          instrumented.counts.appends += 1;
          await real.append(data);
        },
        async sync() {
          instrumented.counts.syncs += 1;
          announce();
          if (instrumented.gate) await instrumented.gate;
          const failThis = instrumented.failSyncs || instrumented.failNext > 0;
          if (instrumented.failNext > 0) instrumented.failNext -= 1;
          if (failThis) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          await real.sync();
        },
      };
    },
  };
  instrumented.syncStarted = new Promise((resolve) => (announce = resolve));
  return instrumented;
}

/** Tenants' plants kept in `log`, as the server makes them (no seed), seen as plant stores. */
export function durableStores(log: PlantLog, maxTenants?: number): PlantsByTenant {
  return plantsByTenant(createResourceStores({ backing: durableBacking(log), maxTenants }));
}

/** Each tenant's 'plants' collection as a Plants, over resource stores. */
export interface PlantsByTenant {
  readonly items: ResourceStores;
  forTenant(tenant: TenantId): Promise<Plants>;
  existing(tenant: TenantId): Promise<Plants | undefined>;
  tenants(): TenantId[];
  counts(): { readonly tenants: number; readonly items: number };
}

export function plantsByTenant(items: ResourceStores): PlantsByTenant {
  return {
    items,
    forTenant: (tenant) => items.forTenant(tenant).then((tenantItems) => plantsIn(tenantItems.collection(PLANTS))),
    existing: (tenant) => items.existing(tenant).then((tenantItems) => tenantItems && plantsIn(tenantItems.collection(PLANTS))),
    tenants: () => items.tenants(),
    counts: () => items.counts(),
  };
}

/** The plants of an opened tenant log as a store over it (as durableBacking makes it), compaction watching it. */
export function plantsOver(opened: OpenedTenant): Plants {
  const memory = createMemoryTenant({ sinkFor: opened.log.sinkFor, restored: opened.tables });
  opened.log.watch(liveStateOf(memory));
  return plantsIn(memory.collection(PLANTS).store);
}

/** A new tenant's seed of plants. */
export function plantSeed(plants: readonly Plant[]): SeedItems {
  return { [PLANTS]: plants.map(plantItem) };
}

/** Every plant id of a store, in creation order. */
export async function idsOf(store: Plants): Promise<bigint[]> {
  return (await store.list({ limit: 1_000_000 })).plants.map((plant) => plant.id);
}
