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
  const result = await stores.forTenant(tenant).seed(plants as Plant[]);
  return json(200, `{"created":${result.created},"duplicates":${idsJson(result.duplicates)}}`);
};

export const resetPlants: ControlHandler = async ({ tenant }, { stores }) => {
  await existingStore(stores, tenant)?.reset();
  return noContent();
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
  const deleted = (await existingStore(stores, tenant)?.delete(id.id)) ?? false;
  return deleted ? noContent() : notFound(noPlant(id.id));
};

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
