/**
 * Every tenant's collections in one Redis, shared by every replica that names it (issue 22). Keys
 * are namespaced by the document (a hash of it) and the tenant, so two documents, or two tenants,
 * share one Redis without meeting, and a reset clears only its own collection. A collection's keys
 * share one hash tag ({tenant|collection}) so that on a Redis Cluster they sit in one slot, as a
 * script needs. A tenant's seed is applied once per store, by whichever replica comes first.
 */
import type { CollectionKey, ItemStore, ResourceStores, TenantItems } from '../item-store.js';
import type { SeedItems, TenantId } from '../tenants.js';
import type { RedisConnection } from './connection.js';
import { createRedisItems, type CollectionKeys } from './redis-items.js';

export interface RedisStoresOptions {
  /** The namespace of every key: 'ps:<document hash>'. */
  readonly namespace: string;
  /** What a tenant starts with (the shared tenant included); applied once per store. */
  readonly seedFor: (tenant: TenantId) => SeedItems;
  /** Tenants whose handles a replica keeps (their items stay in Redis either way). */
  readonly maxTenants: number;
  /** How often health's counters are read again. */
  readonly countsEveryMs?: number;
}

export interface RedisStores extends ResourceStores {
  /** Stops reading the counters. */
  close(): void;
}

export function createRedisStores(redis: RedisConnection, options: RedisStoresOptions): RedisStores {
  const { namespace } = options;
  const tenantsKey = `${namespace}:tenants`;
  const countsKey = `${namespace}:counts`;
  const handles = new Map<TenantId, Promise<TenantItems>>();
  let counts = { tenants: 0, items: 0 };

  const keysOf = (tenant: TenantId, collection: CollectionKey): CollectionKeys => {
    const tag = `${namespace}:{${tenant}|${collection}}`;
    return [`${tag}:items`, `${tag}:order`, `${tag}:sequence`, `${tag}:allocated`, `${tag}:seeded`, countsKey];
  };

  async function open(tenant: TenantId): Promise<TenantItems> {
    const collectionsKey = `${namespace}:{${tenant}}:collections`;
    const held = new Set<CollectionKey>(await redis.call((client) => client.smembers(collectionsKey)));
    const stores = new Map<CollectionKey, ReturnType<typeof createRedisItems>>();
    const collection = (key: CollectionKey) => {
      let store = stores.get(key);
      if (!store) {
        store = createRedisItems(redis, keysOf(tenant, key));
        stores.set(key, store);
        if (!held.has(key)) {
          held.add(key);
          // Only for listing the tenant's collections; the items themselves never depend on it.
          redis.client.sadd(collectionsKey, key).catch(() => held.delete(key));
        }
      }
      return store;
    };
    await redis.call((client) => client.sadd(tenantsKey, tenant));
    for (const [key, items] of Object.entries(options.seedFor(tenant))) if (items.length > 0) await collection(key).seedOnce(items);
    return { collection: (key): ItemStore => collection(key), collections: () => [...held] };
  }

  const stores: RedisStores = {
    forTenant(tenant) {
      let handle = handles.get(tenant);
      if (handle) {
        // Least recently used last: touched handles move to the end.
        handles.delete(tenant);
        handles.set(tenant, handle);
        return handle;
      }
      handle = open(tenant);
      handles.set(tenant, handle);
      handle.catch(() => handles.delete(tenant));
      for (const oldest of handles.keys()) {
        if (handles.size <= options.maxTenants + 1) break;
        handles.delete(oldest);
      }
      return handle;
    },
    async existing(tenant) {
      if (handles.has(tenant)) return stores.forTenant(tenant);
      const known = await redis.call((client) => client.sismember(tenantsKey, tenant));
      return String(known) === '1' ? stores.forTenant(tenant) : undefined;
    },
    tenants: () => [...handles.keys()],
    counts: () => counts,
    close: () => clearInterval(timer),
  };

  const refresh = () =>
    redis.client
      .multi()
      .scard(tenantsKey)
      .hget(countsKey, 'items')
      .exec()
      .then((results) => {
        const [tenants, items] = (results ?? []).map(([, value]) => Number(value ?? 0));
        counts = { tenants: tenants ?? 0, items: items ?? 0 };
      })
      .catch(() => {});
  void refresh();
  const timer = setInterval(refresh, options.countsEveryMs ?? 1000);
  timer.unref();
  return stores;
}
