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

/**
 * One store of plants. Reads are synchronous; changes are promises because a durable store
 * answers only once the change is on disk.
 */
export interface PlantStore {
  /** Stores the plant unless its id is taken; a taken id leaves the store unchanged. */
  create(plant: Plant): Promise<CreateResult>;
  /** Stores many plants; ids already taken are reported, not overwritten. */
  seed(plants: readonly Plant[]): Promise<SeedResult>;
  delete(id: bigint): Promise<boolean>;
  /** Removes every plant. */
  reset(): Promise<void>;
  get(id: bigint): Plant | undefined;
  /** Plants in the order they were created. */
  list(): Plant[];
  readonly size: number;
}

/** The changes a store can go through, as plain data: what a durable store writes to its log. */
export type StoreChange =
  | { readonly kind: 'create'; readonly plant: Plant }
  | { readonly kind: 'delete'; readonly id: bigint }
  | { readonly kind: 'reset' };

/** Where changes go before they count; the in-memory default keeps nothing. */
export type ChangeSink = (change: StoreChange) => Promise<void>;

const NO_SINK: ChangeSink = () => Promise.resolve();

/**
 * The embedded in-memory store. With a sink, every change is applied in memory first (so a second
 * create of the same id is refused at once) and answered only when the sink has taken it; if the
 * sink fails the change is undone and the error passes to the caller.
 */
export function createPlantStore(sink: ChangeSink = NO_SINK): PlantStore {
  const plants = new Map<bigint, Plant>();

  async function apply(change: StoreChange, undo: () => void): Promise<void> {
    if (sink === NO_SINK) return;
    try {
      await sink(change);
    } catch (error) {
      undo();
      throw error;
    }
  }

  const store: PlantStore = {
    async create(plant) {
      const existing = plants.get(plant.id);
      if (existing) return { ok: false, reason: 'duplicate-id', existing };
      const stored = freezePlant(plant);
      plants.set(stored.id, stored);
      await apply({ kind: 'create', plant: stored }, () => plants.delete(stored.id));
      return { ok: true, plant: stored };
    },
    async seed(batch) {
      const results = await Promise.all(batch.map((plant) => store.create(plant)));
      const duplicates = results.flatMap((result) => (result.ok ? [] : [result.existing.id]));
      return { created: results.length - duplicates.length, duplicates };
    },
    async delete(id) {
      const existing = plants.get(id);
      if (!existing) return false;
      plants.delete(id);
      await apply({ kind: 'delete', id }, () => plants.set(id, existing));
      return true;
    },
    async reset() {
      const before = new Map(plants);
      plants.clear();
      await apply({ kind: 'reset' }, () => before.forEach((plant, id) => plants.set(id, plant)));
    },
    get: (id) => plants.get(id),
    list: () => [...plants.values()],
    get size() {
      return plants.size;
    },
  };
  return store;
}

function freezePlant(plant: Plant): Plant {
  return Object.freeze(plant.tag === undefined ? { id: plant.id, name: plant.name } : { id: plant.id, name: plant.name, tag: plant.tag });
}
