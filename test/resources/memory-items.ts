/**
 * A small in-memory ItemStore for the handlers' unit tests, written from the interface alone
 * (src/store/item-store.ts) so the handlers are tested apart from the store's implementation.
 */
import { toJsonText } from '../../src/core/json/exact-json.js';
import type { Item, ItemKey, ItemPageRequest, ItemStore, ResourceStores, TenantItems } from '../../src/store/item-store.js';

export function memoryItems(): ItemStore {
  const items = new Map<ItemKey, { item: Item; sequence: number }>();
  let sequence = 0;
  let allocated = 0n;
  const store: ItemStore = {
    async create(item) {
      const existing = items.get(item.id);
      if (existing) return { ok: false, reason: 'duplicate-id', existing: existing.item };
      items.set(item.id, { item, sequence: ++sequence });
      return { ok: true, item };
    },
    async allocate() {
      return ++allocated;
    },
    async get(id) {
      return items.get(id)?.item;
    },
    async replace(item) {
      const existing = items.get(item.id);
      if (!existing) return undefined;
      items.set(item.id, { item, sequence: existing.sequence });
      return item;
    },
    async update(id, change) {
      const existing = items.get(id);
      if (!existing) return undefined;
      const item = change(existing.item);
      items.set(id, { item, sequence: existing.sequence });
      return item;
    },
    async delete(id) {
      return items.delete(id);
    },
    async reset() {
      items.clear();
    },
    async seed(batch) {
      const duplicates: ItemKey[] = [];
      for (const item of batch) if (!(await store.create(item)).ok) duplicates.push(item.id);
      return { created: batch.length - duplicates.length, duplicates };
    },
    async list(page: ItemPageRequest) {
      const after = page.cursor === undefined ? 0 : Number(page.cursor);
      const matching = [...items.values()]
        .filter(({ sequence: at }) => at > after)
        .sort((a, b) => a.sequence - b.sequence)
        .filter(({ item }) =>
          Object.entries(page.where ?? {}).every(([name, value]) => name in item.fields && toJsonText(item.fields[name]!) === toJsonText(value)),
        )
        .slice(page.skip ?? 0);
      const shown = matching.slice(0, page.limit);
      const last = shown.at(-1);
      return matching.length > shown.length && last
        ? { items: shown.map(({ item }) => item), next: String(last.sequence) }
        : { items: shown.map(({ item }) => item) };
    },
    async count() {
      return items.size;
    },
  };
  return store;
}

export function memoryResourceStores(): ResourceStores {
  const tenants = new Map<string, Map<string, ItemStore>>();
  const tenantItems = (collections: Map<string, ItemStore>): TenantItems => ({
    collection(key) {
      let store = collections.get(key);
      if (!store) collections.set(key, (store = memoryItems()));
      return store;
    },
    collections: () => [...collections.keys()],
  });
  return {
    async forTenant(tenant) {
      let collections = tenants.get(tenant);
      if (!collections) tenants.set(tenant, (collections = new Map()));
      return tenantItems(collections);
    },
    async existing(tenant) {
      const collections = tenants.get(tenant);
      return collections && tenantItems(collections);
    },
    tenants: () => [...tenants.keys()],
    counts: () => ({ tenants: tenants.size, items: 0 }),
  };
}
