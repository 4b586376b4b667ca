import type { Item, ItemCreateResult, ItemKey, ItemStore } from './item-store.js';
import { allocatedPast, clear, createTable, has, highestKey, insert, itemOf, overwrite, page, remove, type ItemTable } from './item-table.js';
import type { JsonValue } from '../core/json/exact-json.js';

/** The changes a collection can go through, as plain data: what a durable store writes to its log. */
export type StoreChange =
  | { readonly kind: 'create'; readonly item: Item }
  | { readonly kind: 'replace'; readonly item: Item }
  | { readonly kind: 'delete'; readonly id: ItemKey }
  | { readonly kind: 'reset' }
  /** The allocation sequence has given `value`: it is never given again. */
  | { readonly kind: 'allocate'; readonly value: bigint }
  /** A seed, all or nothing: the items (none of them stored before) and where the allocation sequence moved to. */
  | { readonly kind: 'seed'; readonly items: readonly Item[]; readonly allocated?: bigint };

/** Where changes go before they count; the in-memory default keeps nothing. */
export type ChangeSink = (change: StoreChange) => Promise<void>;

/** The in-memory store with what its owner (tenants, compaction) reads synchronously. */
export interface MemoryStore {
  readonly store: ItemStore;
  /** Items held now (changes still waiting for their sink not counted). */
  readonly size: number;
  /** The table itself, read by a log snapshot (items in creation order, the allocation sequence). */
  readonly table: ItemTable;
  /** Whether a change is waiting for its sink: such a store must not be dropped. */
  readonly busy: boolean;
}

export interface MemoryStoreOptions {
  /** Absent or undefined: changes go nowhere but memory. */
  readonly sink?: ChangeSink | undefined;
  /** Told every change of the item count, so a total over tenants costs nothing to read. */
  readonly onCount?: (delta: number) => void;
  /** Items already durable (replayed from a log), taken over as they are, without the sink. */
  readonly restored?: ItemTable | undefined;
}

/**
 * The embedded in-memory store of one collection. With a sink, a change enters the state only
 * once the sink has taken it (so a failed write leaves no trace), and an operation on a key with a
 * change in flight (or during a reset or a seed) first waits for it: a 409 or a 404 is then the
 * truth, not a guess about a write that may still fail. Changes are applied in the order the sink
 * confirms them, which is the log's order, so memory and log agree.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const { sink, onCount } = options;
  const table = options.restored ?? createTable();
  onCount?.(table.byId.size);
  const pending = new Map<ItemKey, Promise<unknown>>();
  let pendingAll: Promise<unknown> | undefined;
  let inFlight = 0;
  /** The last number handed out, durable or not yet: a number is given once, even when its write failed. */
  let handedOut = table.allocated;

  const add = (item: Item) => {
    insert(table, item);
    onCount?.(1);
  };
  const drop = (id: ItemKey) => {
    if (remove(table, id)) onCount?.(-1);
  };
  const empty = () => {
    onCount?.(-table.byId.size);
    clear(table);
  };

  /**
   * Sends a change to the sink; applies it once taken. `keys` marks whose operations must wait:
   * one key, several (a seed), or undefined for all of them (a reset).
   */
  async function durably(change: StoreChange, keys: ItemKey | readonly ItemKey[] | undefined, apply: () => void): Promise<void> {
    const written = (sink as ChangeSink)(change);
    inFlight += 1;
    const list: readonly ItemKey[] = keys === undefined ? [] : Array.isArray(keys) ? keys : [keys as ItemKey];
    if (keys === undefined) pendingAll = written;
    for (const key of list) pending.set(key, written);
    try {
      await written;
      apply();
    } finally {
      inFlight -= 1;
      if (keys === undefined && pendingAll === written) pendingAll = undefined;
      for (const key of list) if (pending.get(key) === written) pending.delete(key);
    }
  }

  /** What a change of `id` must wait for before the state can answer it; undefined: nothing. */
  function waitFor(id: ItemKey): Promise<unknown> | undefined {
    return pendingAll ?? pending.get(id);
  }

  const settle = (promise: Promise<unknown>) => promise.then(noop, noop);

  async function createAfterWait(item: Item, wait: Promise<unknown>): Promise<ItemCreateResult> {
    await settle(wait);
    return store.create(item);
  }

  /** What a change of any of `keys` must wait for; undefined: nothing. */
  function waitForAny(keys: readonly ItemKey[]): Promise<unknown> | undefined {
    if (pendingAll) return pendingAll;
    if (pending.size === 0) return undefined;
    for (const key of keys) {
      const wait = pending.get(key);
      if (wait) return wait;
    }
    return undefined;
  }

  const store: ItemStore = {
    create(item) {
      if (sink !== undefined) {
        const wait = waitFor(item.id);
        if (wait) return createAfterWait(item, wait);
      }
      const existing = itemOf(table, item.id);
      if (existing) return Promise.resolve({ ok: false, reason: 'duplicate-id', existing });
      const stored = freezeItem(item);
      if (sink === undefined) {
        add(stored);
        return Promise.resolve({ ok: true, item: stored });
      }
      return durably({ kind: 'create', item: stored }, stored.id, () => add(stored)).then(() => ({ ok: true, item: stored }));
    },
    async allocate() {
      handedOut += 1n;
      const value = handedOut;
      if (sink === undefined) allocatedPast(table, value);
      else await durably({ kind: 'allocate', value }, [], () => allocatedPast(table, value));
      return value;
    },
    async get(id) {
      return itemOf(table, id);
    },
    replace(item) {
      return store.update(item.id, () => item);
    },
    async update(id, change) {
      // Checked again after each wait, with nothing awaited between the check and the write: two
      // updates woken together cannot both read the same state.
      for (let wait = waitFor(id); wait; wait = waitFor(id)) await settle(wait);
      const current = itemOf(table, id);
      if (!current) return undefined;
      const next = freezeItem(change(current));
      if (next.id !== id) throw new Error(`an update of item ${String(id)} must keep its key, not change it to ${String(next.id)}`);
      if (sink === undefined) overwrite(table, next);
      else await durably({ kind: 'replace', item: next }, id, () => overwrite(table, next));
      return next;
    },
    async delete(id) {
      const wait = waitFor(id);
      if (wait) {
        await settle(wait);
        return store.delete(id);
      }
      if (!has(table, id)) return false;
      if (sink === undefined) drop(id);
      else await durably({ kind: 'delete', id }, id, () => drop(id));
      return true;
    },
    async reset() {
      if (sink === undefined) return empty();
      // A reset is ordered after every change already in flight, as the log will have them.
      await durably({ kind: 'reset' }, undefined, empty);
    },
    async seed(batch) {
      const keys = batch.map((item) => item.id);
      for (let wait = waitForAny(keys); wait; wait = waitForAny(keys)) await settle(wait);
      const fresh: Item[] = [];
      const taken = new Set<ItemKey>();
      const duplicates: ItemKey[] = [];
      for (const item of batch) {
        if (taken.has(item.id) || has(table, item.id)) duplicates.push(item.id);
        else {
          taken.add(item.id);
          fresh.push(freezeItem(item));
        }
      }
      // Server-assigned integer ids given in a seed are taken as given; allocation moves past them.
      const highest = highestKey(fresh);
      const allocated = highest > handedOut ? highest : undefined;
      const apply = () => {
        for (const item of fresh) add(item);
        if (allocated !== undefined) {
          allocatedPast(table, allocated);
          if (allocated > handedOut) handedOut = allocated;
        }
      };
      if (sink === undefined) apply();
      else if (fresh.length > 0 || allocated !== undefined) {
        // One change, one log record: the seed is stored whole or not at all.
        await durably({ kind: 'seed', items: fresh, ...(allocated !== undefined ? { allocated } : {}) }, [...taken], apply);
      }
      return { created: fresh.length, duplicates };
    },
    async list({ cursor, limit, skip = 0, where }) {
      const keep = where === undefined || Object.keys(where).length === 0 ? undefined : matcher(where);
      return page(table, cursor === undefined ? 0 : Number(cursor), limit, skip, keep);
    },
    async count() {
      return table.byId.size;
    },
  };
  return {
    store,
    table,
    get size() {
      return table.byId.size;
    },
    get busy() {
      return inFlight > 0;
    },
  };
}

/** Whether a cursor is one this store could have given: a creation sequence in decimal. */
export function isCursor(text: string): boolean {
  return /^[1-9][0-9]{0,14}$/.test(text);
}

/** Keeps the items whose every named property equals the value, compared as JSON (1 and 1n are equal). */
function matcher(where: Readonly<Record<string, JsonValue>>): (item: Item) => boolean {
  const wanted = Object.entries(where);
  return (item) => wanted.every(([property, value]) => sameJson(item.fields[property], value));
}

export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    // An integer may be held as a number or (beyond 2^53) a bigint: compare integers exactly.
    const integral = (value: number | bigint) => typeof value === 'bigint' || Number.isInteger(value);
    if (integral(a) && integral(b)) return BigInt(a) === BigInt(b);
    return a === b;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((value, index) => sameJson(value, b[index]));
  const left = a as Record<string, JsonValue>;
  const right = b as Record<string, JsonValue>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

function noop(): void {}

/** What is stored cannot change behind the store's back: the item and its fields are frozen (in place: no copy on the hot path). */
function freezeItem(item: Item): Item {
  Object.freeze(item.fields);
  return Object.freeze(item);
}
