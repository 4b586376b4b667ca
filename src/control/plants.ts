import { ErrorCode } from '../errors/failure.js';
import type { Outcome } from '../handlers/outcome.js';
import type { Plant, PlantStore } from '../store/plant-store.js';
import type { TenantId } from '../store/tenants.js';
import { INT64_MAX, INT64_MIN } from '../validation/int64.js';
import { idsJson, json, noContent, notFound, refused, storedPlantJson } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';

export const listPlants: ControlHandler = ({ tenant }, { stores }) => {
  const plants = existingStore(stores, tenant)?.list() ?? [];
  return json(200, `[${plants.map(storedPlantJson).join(',')}]`);
};

export const seedPlants: ControlHandler = async ({ body, tenant }, { stores }) => {
  const plants = Array.isArray(body) ? body.map(toPlant) : [undefined];
  if (plants.some((plant) => plant === undefined)) {
    // The document's schema already demands this; only a different control document gets here.
    return refused(ErrorCode.internal, 'seedPlants was given a body that is not an array of NewPlant; the control document does not match plantstore');
  }
  const seeded = await durably(stores.forTenant(tenant).seed(plants as Plant[]));
  if (!seeded.ok) return seeded.refusal;
  const { created = 0, duplicates = [] } = seeded.value ?? {};
  return json(200, `{"created":${created},"duplicates":${idsJson(duplicates)}}`);
};

export const resetPlants: ControlHandler = async ({ tenant }, { stores }) => {
  const result = await durably(existingStore(stores, tenant)?.reset());
  return result.ok ? noContent() : result.refusal;
};

export const getPlant: ControlHandler = ({ pathParameters, tenant }, { stores }) => {
  const id = parsePlantId(pathParameters.id);
  if (!id.ok) return id.refusal;
  const plant = existingStore(stores, tenant)?.get(id.id);
  return plant ? json(200, storedPlantJson(plant)) : notFound(noPlant(id.id));
};

export const deletePlant: ControlHandler = async ({ pathParameters, tenant }, { stores }) => {
  const id = parsePlantId(pathParameters.id);
  if (!id.ok) return id.refusal;
  const deleted = await durably(existingStore(stores, tenant)?.delete(id.id));
  if (!deleted.ok) return deleted.refusal;
  return deleted.value ? noContent() : notFound(noPlant(id.id));
};

/** A change the store could not make durable (--data-dir) was undone: the store's 503, as createPlant answers it. */
async function durably<T>(change: Promise<T> | undefined): Promise<{ ok: true; value: T | undefined } | { ok: false; refusal: Outcome }> {
  try {
    return { ok: true, value: await change };
  } catch (error) {
    return { ok: false, refusal: refused(ErrorCode.storageFailed, `the change could not be stored durably, so it was not made: ${error instanceof Error ? error.message : String(error)}`) };
  }
}

/** A path id parsed exactly: digits only, within int64 (BigInt alone would take "0x1f" and " 1"). */
export function parsePlantId(text: string | undefined): { ok: true; id: bigint } | { ok: false; refusal: Outcome } {
  const id = text !== undefined && /^-?\d{1,20}$/.test(text) ? BigInt(text) : undefined;
  if (id === undefined || id < INT64_MIN || id > INT64_MAX) {
    return { ok: false, refusal: refused(ErrorCode.schemaViolation, `the plant id must be an int64 in decimal (${INT64_MIN} to ${INT64_MAX}), not "${text ?? ''}"`) };
  }
  return { ok: true, id };
}

function noPlant(id: bigint): string {
  return `no plant has id ${id}`;
}

/** Reads never make a store: a GET must not add a tenant to the health count. */
function existingStore(stores: ControlContext['stores'], tenant: TenantId): PlantStore | undefined {
  return stores.tenants().includes(tenant) ? stores.forTenant(tenant) : undefined;
}

/** A NewPlant the document has validated: integer ids arrive as numbers, or bigints beyond 2^53. */
function toPlant(value: unknown): Plant | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, name, tag } = value as Record<string, unknown>;
  const exactId = typeof id === 'bigint' ? id : typeof id === 'number' && Number.isSafeInteger(id) ? BigInt(id) : undefined;
  if (exactId === undefined || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return undefined;
  return tag === undefined ? { id: exactId, name } : { id: exactId, name, tag };
}
