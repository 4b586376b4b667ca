/**
 * Plants, the items of the bundled Plant Store's 'plants' collection whose key is the int64 id, as
 * the `seed` option, the seed file's plain list and the first data-dir records hold them. Every
 * other use goes through the item store (item-store.ts).
 */
import type { Item, ItemFields } from './item-store.js';
import { narrow } from '../core/json/int64.js';

/** The plants' collection in every tenant. */
export const PLANTS = 'plants';

/** A stored plant. The id is a bigint: every int64 is kept exactly. */
export interface Plant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
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
