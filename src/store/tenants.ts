import { createHash } from 'node:crypto';
import type { CollectionKey, ItemStore, ResourceStores, TenantItems } from './item-store.js';
import type { Item } from './item-store.js';
import { createMemoryTenant, type MemoryTenant } from './memory-tenant.js';

/**
 * Who a request's items belong to. Without isolation everyone shares the default tenant; with
 * --isolate-by-token each bearer token is a tenant, named by a digest so the token itself is never
 * kept, logged or written to disk.
 */
export type TenantId = string;

export const SHARED_TENANT: TenantId = 'shared';

export function tenantOfToken(token: string): TenantId {
  return `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

/** Items a new tenant starts with, by collection ('plants': the seed plants). */
export type SeedItems = Readonly<Record<CollectionKey, readonly Item[]>>;

/** A tenant's collections in memory and how to let go of them. */
export interface OpenedStore {
  readonly memory: MemoryTenant;
  /** After eviction: closes what backs the tenant (its log). */
  release(): Promise<void>;
}

/** Where tenants come from: memory alone, or a data dir. */
export interface TenantBacking {
  /** Ops on the store may wait on I/O: a tenant is evicted only when none is in flight. */
  readonly durable: boolean;
  /** The tenant's collections; undefined when `create` is not set and the tenant does not exist. */
  open(tenant: TenantId, create: boolean, onCount: (delta: number) => void): Promise<OpenedStore | undefined>;
}

export interface ResourceStoresOptions {
  readonly backing?: TenantBacking;
  /** Tenants held in memory besides the shared one; the least recently used idle one goes first. Default (absent or undefined): no limit. */
  readonly maxTenants?: number | undefined;
  /** Told of each eviction (the server logs it). */
  readonly onEvict?: (tenant: TenantId) => void;
  /** Told of a problem letting go of an evicted tenant (closing its log); not fatal. */
  readonly onProblem?: (message: string) => void;
}

/** In memory only: a tenant that is not held does not exist, and is new (seeded by `seedNew`) when it comes. */
export function memoryBacking(seedNew?: (tenant: TenantId) => SeedItems): TenantBacking {
  return {
    durable: false,
    async open(tenant, create, onCount) {
      if (!create) return undefined;
      const memory = createMemoryTenant({ onCount });
      for (const [key, items] of Object.entries(seedNew?.(tenant) ?? {})) if (items.length > 0) await memory.collection(key).store.seed(items);
      return { memory, release: () => Promise.resolve() };
    },
  };
}

interface Slot {
  readonly tenant: TenantId;
  readonly opened: OpenedStore;
  /** The handle given out: stays usable after eviction (it reloads the tenant). */
  readonly handle: TenantItems;
  readonly ready: Promise<TenantItems>;
  /** Operations through the handle not yet answered (durable stores only). */
  active: number;
  evicted: boolean;
}

/**
 * The collections of each tenant, at most `maxTenants` tenants in memory besides the shared one.
 * Each handle counts its operations in flight so an eviction never drops a tenant mid-change, and
 * item and tenant totals are kept as counters for health.
 */
export function createResourceStores(options: ResourceStoresOptions = {}): ResourceStores {
  const backing = options.backing ?? memoryBacking();
  const maxTenants = options.maxTenants ?? Number.POSITIVE_INFINITY;
  /** Live tenants in least-recently-used order: a touch moves a tenant to the end. */
  const live = new Map<TenantId, Slot>();
  const opening = new Map<TenantId, Promise<Slot | undefined>>();
  let items = 0;
  let lastTouched: Slot | undefined;
  const onCount = (delta: number) => {
    items += delta;
  };

  function touch(slot: Slot): void {
    if (slot === lastTouched) return;
    live.delete(slot.tenant);
    live.set(slot.tenant, slot);
    lastTouched = slot;
  }

  function collectionHandle(slot: Slot, key: CollectionKey): ItemStore {
    const { store } = slot.opened.memory.collection(key);
    // A handle of an evicted tenant reloads it (from disk, or from the seed without a data dir).
    const through = <T>(operation: (target: ItemStore) => Promise<T>): Promise<T> => {
      if (slot.evicted) return stores.forTenant(slot.tenant).then((tenant) => operation(tenant.collection(key)));
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
      create: (item) => {
        if (slot.evicted || backing.durable) return through((target) => target.create(item));
        if (slot !== lastTouched) touch(slot);
        return store.create(item);
      },
      allocate: () => through((target) => target.allocate()),
      get: (id) => through((target) => target.get(id)),
      replace: (item) => through((target) => target.replace(item)),
      update: (id, change) => through((target) => target.update(id, change)),
      delete: (id) => through((target) => target.delete(id)),
      reset: () => through((target) => target.reset()),
      seed: (batch) => through((target) => target.seed(batch)),
      list: (page) => through((target) => target.list(page)),
      count: () => through((target) => target.count()),
    };
  }

  function tenantHandle(slot: Slot): TenantItems {
    const handles = new Map<CollectionKey, ItemStore>();
    return {
      collection(key) {
        let handle = handles.get(key);
        if (!handle) {
          handle = collectionHandle(slot, key);
          handles.set(key, handle);
        }
        return handle;
      },
      collections: () => slot.opened.memory.entries().map(([key]) => key),
    };
  }

  function admit(tenant: TenantId, opened: OpenedStore): Slot {
    const slot = { tenant, opened, active: 0, evicted: false } as Slot;
    const handle = tenantHandle(slot);
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
      items -= slot.opened.memory.size;
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

  const stores: ResourceStores = {
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
    counts: () => ({ tenants: live.size, items }),
  };
  return stores;
}
