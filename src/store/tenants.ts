import { createHash } from 'node:crypto';
import { createMemoryStore, type MemoryStore, type Plant, type PlantStore } from './plant-store.js';

/**
 * Who a request's plants belong to. Without isolation everyone shares the default tenant; with
 * --isolate-by-token each bearer token is a tenant, named by a digest so the token itself is never
 * kept, logged or written to disk.
 */
export type TenantId = string;

export const SHARED_TENANT: TenantId = 'shared';

export function tenantOfToken(token: string): TenantId {
  return `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

export interface PlantStores {
  /** The store of a tenant: made on first use, reloaded if it was evicted. */
  forTenant(tenant: TenantId): Promise<PlantStore>;
  /** The store of a tenant that exists (in memory or, with a data dir, on disk); never makes one. */
  existing(tenant: TenantId): Promise<PlantStore | undefined>;
  /** Tenants held in memory, least recently used first. */
  tenants(): TenantId[];
  /** Tenants and plants held in memory: counters, so reading them costs the same for any number of tenants. */
  counts(): { readonly tenants: number; readonly plants: number };
}

/** A tenant's plants in memory and how to let go of them. */
export interface OpenedStore {
  readonly memory: MemoryStore;
  /** After eviction: closes what backs the store (its log). */
  release(): Promise<void>;
}

/** Where tenants come from: memory alone, or a data dir. */
export interface TenantBacking {
  /** Ops on the store may wait on I/O: a tenant is evicted only when none is in flight. */
  readonly durable: boolean;
  /** The tenant's store; undefined when `create` is not set and the tenant does not exist. */
  open(tenant: TenantId, create: boolean, onCount: (delta: number) => void): Promise<OpenedStore | undefined>;
}

export interface PlantStoresOptions {
  readonly backing?: TenantBacking;
  /** Tenants held in memory besides the shared one; the least recently used idle one goes first. Default (absent or undefined): no limit. */
  readonly maxTenants?: number | undefined;
  /** Told of each eviction (the server logs it). */
  readonly onEvict?: (tenant: TenantId) => void;
  /** Told of a problem letting go of an evicted tenant (closing its log); not fatal. */
  readonly onProblem?: (message: string) => void;
}

/** In memory only: a tenant that is not held does not exist, and is new (seeded by `seedNew`) when it comes. */
export function memoryBacking(seedNew?: (tenant: TenantId) => readonly Plant[]): TenantBacking {
  return {
    durable: false,
    async open(tenant, create, onCount) {
      if (!create) return undefined;
      const memory = createMemoryStore({ onCount });
      const seed = seedNew?.(tenant) ?? [];
      if (seed.length > 0) await memory.store.seed(seed);
      return { memory, release: () => Promise.resolve() };
    },
  };
}

interface Slot {
  readonly tenant: TenantId;
  readonly opened: OpenedStore;
  /** The handle given out: stays usable after eviction (it reloads the tenant). */
  readonly handle: PlantStore;
  readonly ready: Promise<PlantStore>;
  /** Operations through the handle not yet answered (durable stores only). */
  active: number;
  evicted: boolean;
}

/**
 * A store per tenant, at most `maxTenants` of them in memory besides the shared one. Each handle
 * counts its operations in flight so an eviction never drops a tenant mid-change, and plant and
 * tenant totals are kept as counters for health.
 */
export function createPlantStores(options: PlantStoresOptions = {}): PlantStores {
  const backing = options.backing ?? memoryBacking();
  const maxTenants = options.maxTenants ?? Number.POSITIVE_INFINITY;
  /** Live tenants in least-recently-used order: a touch moves a tenant to the end. */
  const live = new Map<TenantId, Slot>();
  const opening = new Map<TenantId, Promise<Slot | undefined>>();
  let plants = 0;
  let lastTouched: Slot | undefined;
  const onCount = (delta: number) => {
    plants += delta;
  };

  function touch(slot: Slot): void {
    if (slot === lastTouched) return;
    live.delete(slot.tenant);
    live.set(slot.tenant, slot);
    lastTouched = slot;
  }

  function handleOf(slot: Slot): PlantStore {
    const { store } = slot.opened.memory;
    // A handle of an evicted tenant reloads it (from disk, or from the seed without a data dir).
    const through = <T>(operation: (target: PlantStore) => Promise<T>): Promise<T> => {
      if (slot.evicted) return stores.forTenant(slot.tenant).then(operation);
      touch(slot);
      if (!backing.durable) return operation(store);
      slot.active += 1;
      const answer = operation(store);
      answer.then(
        () => (slot.active -= 1),
        () => (slot.active -= 1),
      );
      return answer;
    };
    return {
      // The hot path (POST /plants): a live in-memory tenant answers without a closure or a counter.
      create: (plant) => {
        if (slot.evicted || backing.durable) return through((target) => target.create(plant));
        if (slot !== lastTouched) touch(slot);
        return store.create(plant);
      },
      get: (id) => through((target) => target.get(id)),
      delete: (id) => through((target) => target.delete(id)),
      reset: () => through((target) => target.reset()),
      seed: (batch) => through((target) => target.seed(batch)),
      list: (page) => through((target) => target.list(page)),
      count: () => through((target) => target.count()),
    };
  }

  function admit(tenant: TenantId, opened: OpenedStore): Slot {
    const slot = { tenant, opened, active: 0, evicted: false } as Slot;
    const handle = handleOf(slot);
    Object.assign(slot, { handle, ready: Promise.resolve(handle) });
    live.set(tenant, slot);
    lastTouched = slot;
    evictBeyondCap();
    return slot;
  }

  function evictBeyondCap(): void {
    let over = live.size - (live.has(SHARED_TENANT) ? 1 : 0) - maxTenants;
    if (over <= 0) return;
    for (const slot of live.values()) {
      if (over <= 0) break;
      if (slot.tenant === SHARED_TENANT || slot === lastTouched || slot.active > 0 || slot.opened.memory.busy) continue;
      slot.evicted = true;
      live.delete(slot.tenant);
      plants -= slot.opened.memory.size;
      over -= 1;
      options.onEvict?.(slot.tenant);
      slot.opened
        .release()
        .catch((error: unknown) => options.onProblem?.(`closing evicted tenant ${slot.tenant}: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  async function load(tenant: TenantId, create: boolean): Promise<Slot | undefined> {
    for (;;) {
      const held = live.get(tenant);
      if (held) return held;
      const pending = opening.get(tenant);
      if (pending) {
        const slot = await pending;
        if (slot || !create) return slot;
        continue;
      }
      const loading = backing.open(tenant, create, onCount).then((opened) => opened && admit(tenant, opened));
      opening.set(tenant, loading);
      try {
        return await loading;
      } finally {
        opening.delete(tenant);
      }
    }
  }

  const stores: PlantStores = {
    forTenant(tenant) {
      const slot = live.get(tenant);
      if (slot) {
        touch(slot);
        return slot.ready;
      }
      return load(tenant, true).then((loaded) => (loaded as Slot).handle);
    },
    async existing(tenant) {
      return (await load(tenant, false))?.handle;
    },
    tenants: () => [...live.keys()],
    counts: () => ({ tenants: live.size, plants }),
  };
  return stores;
}
