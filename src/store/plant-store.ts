import { allPlants, clear, createTable, insert, page, plantOf, remove, type PlantTable } from './plant-table.js';

/** A stored plant. The id is a bigint: every int64 is kept exactly. */
export interface Plant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

export type CreateResult = { readonly ok: true; readonly plant: Plant } | { readonly ok: false; readonly reason: 'duplicate-id'; readonly existing: Plant };

export interface SeedResult {
  readonly created: number;
  /** Ids already stored; those plants were left as they were. */
  readonly duplicates: readonly bigint[];
}

/** Which part of the creation order a list answers: plants after `cursor`, at most `limit`. */
export interface PageRequest {
  /** A `next` from an earlier page; absent or undefined: from the first plant. */
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export interface PlantPage {
  readonly plants: readonly Plant[];
  /** Where the next page starts; absent on the last page. */
  readonly next?: string;
}

/**
 * One tenant's plants. Every operation is one atomic step that a shared engine (Redis/Valkey: a
 * hash plus a sorted set by creation sequence, or a Lua script) could do, and every one is a
 * promise, so a networked store fits behind it. A change answers only once it is final (durable,
 * with a log); a refusal (duplicate, absent) is true of the final state when it is given.
 */
export interface PlantStore {
  /** Create-if-absent: stores the plant unless its id is taken; a taken id leaves the store unchanged. */
  create(plant: Plant): Promise<CreateResult>;
  get(id: bigint): Promise<Plant | undefined>;
  delete(id: bigint): Promise<boolean>;
  /** Removes every plant. */
  reset(): Promise<void>;
  /** Stores many plants; ids already taken are reported, not overwritten. */
  seed(plants: readonly Plant[]): Promise<SeedResult>;
  /** A page of plants in the order they were created. */
  list(page: PageRequest): Promise<PlantPage>;
  count(): Promise<number>;
}

/** The changes a store can go through, as plain data: what a durable store writes to its log. */
export type StoreChange = { readonly kind: 'create'; readonly plant: Plant } | { readonly kind: 'delete'; readonly id: bigint } | { readonly kind: 'reset' };

/** Where changes go before they count; the in-memory default keeps nothing. */
export type ChangeSink = (change: StoreChange) => Promise<void>;

/** The in-memory store with what its owner (tenants, compaction) reads synchronously. */
export interface MemoryStore {
  readonly store: PlantStore;
  /** Plants held now (changes still waiting for their sink not counted). */
  readonly size: number;
  /** Every plant held, in creation order: what a log snapshot writes. */
  all(): Plant[];
  /** Whether a change is waiting for its sink: such a store must not be dropped. */
  readonly busy: boolean;
}

export interface MemoryStoreOptions {
  /** Absent or undefined: changes go nowhere but memory. */
  readonly sink?: ChangeSink | undefined;
  /** Told every change of the plant count, so a total over tenants costs nothing to read. */
  readonly onCount?: (delta: number) => void;
  /** Plants already durable (replayed from a log), taken over as they are, without the sink. */
  readonly restored?: PlantTable;
}

/**
 * The embedded in-memory store. With a sink, a change enters the state only once the sink has
 * taken it (so a failed write leaves no trace), and an operation on an id with a change in flight
 * (or during a reset) first waits for it: a 409 or a 404 is then the truth, not a guess about a
 * write that may still fail. Changes are applied in the order the sink confirms them, which is the
 * log's order, so memory and log agree.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const { sink, onCount } = options;
  const table = options.restored ?? createTable();
  onCount?.(table.byId.size);
  const pending = new Map<bigint, Promise<unknown>>();
  let pendingReset: Promise<unknown> | undefined;
  let inFlight = 0;

  const add = (plant: Plant) => {
    insert(table, plant);
    onCount?.(1);
  };
  const drop = (id: bigint) => {
    if (remove(table, id)) onCount?.(-1);
  };
  const empty = () => {
    onCount?.(-table.byId.size);
    clear(table);
  };

  /** Sends a change to the sink; applies it once taken. `id` marks whose operations must wait. */
  async function durably(change: StoreChange, id: bigint | undefined, apply: () => void): Promise<void> {
    const written = (sink as ChangeSink)(change);
    inFlight += 1;
    if (id === undefined) pendingReset = written;
    else pending.set(id, written);
    try {
      await written;
      apply();
    } finally {
      inFlight -= 1;
      if (id === undefined) {
        if (pendingReset === written) pendingReset = undefined;
      } else if (pending.get(id) === written) pending.delete(id);
    }
  }

  /** What a change of `id` must wait for before the state can answer it; undefined: nothing. */
  function waitFor(id: bigint): Promise<unknown> | undefined {
    return pendingReset ?? pending.get(id);
  }

  const settle = (promise: Promise<unknown>) => promise.then(noop, noop);

  async function createAfterWait(plant: Plant, wait: Promise<unknown>): Promise<CreateResult> {
    await settle(wait);
    return store.create(plant);
  }

  const store: PlantStore = {
    create(plant) {
      if (sink !== undefined) {
        const wait = waitFor(plant.id);
        if (wait) return createAfterWait(plant, wait);
      }
      const existing = plantOf(table, plant.id);
      if (existing) return Promise.resolve({ ok: false, reason: 'duplicate-id', existing });
      const stored = freezePlant(plant);
      if (sink === undefined) {
        add(stored);
        return Promise.resolve({ ok: true, plant: stored });
      }
      return durably({ kind: 'create', plant: stored }, stored.id, () => add(stored)).then(() => ({ ok: true, plant: stored }));
    },
    async get(id) {
      return plantOf(table, id);
    },
    async delete(id) {
      const wait = waitFor(id);
      if (wait) {
        await settle(wait);
        return store.delete(id);
      }
      if (!table.byId.has(id)) return false;
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
      const results = await Promise.all(batch.map((plant) => store.create(plant)));
      const duplicates = results.flatMap((result) => (result.ok ? [] : [result.existing.id]));
      return { created: results.length - duplicates.length, duplicates };
    },
    async list({ cursor, limit }) {
      return page(table, cursor === undefined ? 0 : Number(cursor), limit);
    },
    async count() {
      return table.byId.size;
    },
  };
  return {
    store,
    get size() {
      return table.byId.size;
    },
    all: () => allPlants(table),
    get busy() {
      return inFlight > 0;
    },
  };
}

/** A store of its own, in memory: the embedded default. */
export function createPlantStore(sink?: ChangeSink): PlantStore {
  return createMemoryStore({ sink }).store;
}

/** Whether a cursor is one this store could have given: a creation sequence in decimal. */
export function isCursor(text: string): boolean {
  return /^[1-9][0-9]{0,14}$/.test(text);
}

function noop(): void {}

function freezePlant(plant: Plant): Plant {
  return Object.freeze(plant.tag === undefined ? { id: plant.id, name: plant.name } : { id: plant.id, name: plant.name, tag: plant.tag });
}
