/** A stored plant. The id is a bigint: every int64 is kept exactly. */
export interface Plant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

export type CreateResult = { readonly ok: true; readonly plant: Plant } | { readonly ok: false; readonly reason: 'duplicate-id'; readonly existing: Plant };

export interface PlantStore {
  /** Stores the plant unless its id is taken; a taken id leaves the store unchanged. */
  create(plant: Plant): CreateResult;
  get(id: bigint): Plant | undefined;
  /** Plants in the order they were created. */
  list(): Plant[];
  readonly size: number;
  delete(id: bigint): boolean;
  clear(): void;
}

/** The embedded in-memory store. */
export function createPlantStore(): PlantStore {
  const plants = new Map<bigint, Plant>();
  return {
    create(plant) {
      const existing = plants.get(plant.id);
      if (existing) return { ok: false, reason: 'duplicate-id', existing };
      const stored: Plant = Object.freeze(plant.tag === undefined ? { id: plant.id, name: plant.name } : { id: plant.id, name: plant.name, tag: plant.tag });
      plants.set(stored.id, stored);
      return { ok: true, plant: stored };
    },
    get: (id) => plants.get(id),
    list: () => [...plants.values()],
    get size() {
      return plants.size;
    },
    delete: (id) => plants.delete(id),
    clear: () => plants.clear(),
  };
}
