/**
 * Plants as the Plant Store's control API and the first programmatic API knew them: a plant is an
 * item of the 'plants' collection whose key is its int64 id. These views keep that surface on the
 * one item store; new code uses ItemStore (item-store.ts).
 */
import type { Item, ItemFields, ItemStore } from './item-store.js';
import { narrow } from '../core/json/int64.js';

/** The plants' collection in every tenant. */
export const PLANTS = 'plants';

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
 * One tenant's plants: the 'plants' collection seen as plants.
 * @deprecated use the tenant's ItemStore of the 'plants' collection (`stores.forTenant(t)).collection('plants')`).
 */
export interface PlantStore {
  create(plant: Plant): Promise<CreateResult>;
  get(id: bigint): Promise<Plant | undefined>;
  delete(id: bigint): Promise<boolean>;
  reset(): Promise<void>;
  seed(plants: readonly Plant[]): Promise<SeedResult>;
  list(page: PageRequest): Promise<PlantPage>;
  count(): Promise<number>;
}

/** The plant as an item: its fields hold id, name and tag in that order, the id a number where one holds it exactly. */
export function plantItem(plant: Plant): Item {
  const id = narrow(plant.id);
  const fields: ItemFields = plant.tag === undefined ? { id, name: plant.name } : { id, name: plant.name, tag: plant.tag };
  return { id: plant.id, fields };
}

/** The item of the 'plants' collection as a plant (its name and tag, whatever else it holds). */
export function plantOf(item: Item): Plant {
  const { name, tag } = item.fields;
  const id = item.id as bigint;
  const named = typeof name === 'string' ? name : '';
  return typeof tag === 'string' ? { id, name: named, tag } : { id, name: named };
}

/** A collection's store seen as plants. */
export function plantStoreOf(items: ItemStore): PlantStore {
  return {
    create: (plant) =>
      items
        .create(plantItem(plant))
        .then((result) => (result.ok ? { ok: true, plant: plantOf(result.item) } : { ok: false, reason: result.reason, existing: plantOf(result.existing) })),
    get: (id) => items.get(id).then((item) => item && plantOf(item)),
    delete: (id) => items.delete(id),
    reset: () => items.reset(),
    seed: (plants) => items.seed(plants.map(plantItem)).then(({ created, duplicates }) => ({ created, duplicates: duplicates as bigint[] })),
    list: (page) =>
      items.list(page).then(({ items: listed, next }) => (next === undefined ? { plants: listed.map(plantOf) } : { plants: listed.map(plantOf), next })),
    count: () => items.count(),
  };
}
