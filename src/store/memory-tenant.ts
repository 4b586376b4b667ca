import type { CollectionKey } from './item-store.js';
import type { ItemTable } from './item-table.js';
import { createMemoryStore, type ChangeSink, type MemoryStore } from './memory-store.js';

/** One tenant's collections in memory, read synchronously by its owner (tenants, compaction). */
export interface MemoryTenant {
  /** The collection's store, made empty on first use. */
  collection(key: CollectionKey): MemoryStore;
  /** The collections held, in the order they were first used. */
  entries(): [CollectionKey, MemoryStore][];
  /** Items held over every collection. */
  readonly size: number;
  /** Whether a change of any collection is waiting for its sink: such a tenant must not be dropped. */
  readonly busy: boolean;
}

export interface MemoryTenantOptions {
  /** Where a collection's changes go before they count; absent: memory only. */
  readonly sinkFor?: (key: CollectionKey) => ChangeSink;
  readonly onCount?: (delta: number) => void;
  /** Collections replayed from a log, taken over as they are. */
  readonly restored?: ReadonlyMap<CollectionKey, ItemTable>;
}

export function createMemoryTenant(options: MemoryTenantOptions = {}): MemoryTenant {
  const { sinkFor, onCount } = options;
  const stores = new Map<CollectionKey, MemoryStore>();
  const make = (key: CollectionKey, restored?: ItemTable) => {
    const memory = createMemoryStore({ sink: sinkFor?.(key), ...(onCount ? { onCount } : {}), restored });
    stores.set(key, memory);
    return memory;
  };
  for (const [key, table] of options.restored ?? []) make(key, table);
  return {
    collection: (key) => stores.get(key) ?? make(key),
    entries: () => [...stores.entries()],
    get size() {
      let size = 0;
      for (const memory of stores.values()) size += memory.size;
      return size;
    },
    get busy() {
      for (const memory of stores.values()) if (memory.busy) return true;
      return false;
    },
  };
}
