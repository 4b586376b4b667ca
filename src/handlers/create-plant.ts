import { failure } from '../core/errors.js';
import type { TenantItems } from '../store/item-store.js';
import { PLANTS, plantItem, plantOf, type Plant } from '../store/plant-store.js';
import { JSON_HEADERS, type Outcome } from './outcome.js';

export interface CreatePlantOptions {
  /** Add the id to the answer; the document's Plant has name and tag only. */
  readonly echoId: boolean;
}

/**
 * "Create Plant": stores a NewPlant that has passed validation and answers with the Plant.
 * The body is re-checked for its shape because another document may call a different body
 * createPlant; that is the document's mistake, reported as such rather than thrown.
 */
export async function createPlant(body: unknown, tenant: Promise<TenantItems>, options: CreatePlantOptions): Promise<Outcome> {
  const plant = toPlant(body);
  if (!plant) {
    return {
      ok: false,
      failure: failure('internal', "createPlant is served by the plant store, but this document's request body is not a NewPlant (name string, id integer)"),
    };
  }
  let created;
  try {
    // The tenant's store may be loading (first use, or back from eviction): a failure there is the store's too.
    created = await (await tenant).collection(PLANTS).create(plantItem(plant));
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return { ok: false, failure: failure('storageFailed', `the plant could not be stored durably, so it was not stored: ${cause}`) };
  }
  if (!created.ok) {
    return { ok: false, failure: failure('duplicateId', `a plant with id ${plant.id} already exists; ids are unique`) };
  }
  return { ok: true, answer: { status: 200, headers: JSON_HEADERS, body: plantJson(plantOf(created.item), options.echoId) } };
}

/** The Plant as JSON: name, tag when it has one, and the id (written exactly) when echoed. */
export function plantJson(plant: Plant, echoId: boolean): string {
  const json = JSON.stringify(plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag });
  return echoId ? `${json.slice(0, -1)},"id":${plant.id}}` : json;
}

function toPlant(body: unknown): Plant | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { name, tag, id } = body as Record<string, unknown>;
  if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return undefined;
  const exactId = typeof id === 'bigint' ? id : typeof id === 'number' && Number.isSafeInteger(id) ? BigInt(id) : undefined;
  if (exactId === undefined) return undefined;
  return tag === undefined ? { id: exactId, name } : { id: exactId, name, tag };
}
