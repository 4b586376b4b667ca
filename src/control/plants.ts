import type { HandlerContext } from '../handlers/binding.js';
import { JSON_HEADERS, type Outcome } from '../handlers/outcome.js';
import { isCursor } from '../store/memory-store.js';
import { PLANTS, plantOf, plantStoreOf, type Plant, type PlantStore } from '../store/plant-store.js';
import type { ResourceStores } from '../store/item-store.js';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../core/json/int64.js';
import { idsJson, json, noContent, notFound, refused, storedPlantJson } from './answers.js';
import type { ControlHandler } from './context.js';

/** Plants per page of listPlants when the client names no `limit`, and the most it may name. */
export const LIST_LIMITS = { default: 1_000, max: 10_000 } as const;
/** A page stops growing past this many bytes of JSON (names can be long), so no answer is one giant string. */
const PAGE_BYTES = 1024 * 1024;
/** Plants read from the store at a time while a page is filled. */
const READ_CHUNK = 256;

/**
 * One page of the tenant's plants in creation order. The body stays the array it always was; the
 * next page is named in a `Link: <…>; rel="next"` header and, for clients that read no links, in
 * `Plantstore-Next-Cursor`. Neither is sent on the last page.
 */
export const listPlants: ControlHandler = async ({ request, tenant }, { stores }) => {
  const page = pageQuery(request.query);
  if (!page.ok) return page.refusal;
  const loaded = await durably(existingPlants(stores, tenant));
  if (!loaded.ok) return loaded.refusal;
  const store = loaded.value;
  const read =
    store &&
    (async (cursor: string | undefined, limit: number) => {
      const chunk = await store.list({ cursor, limit });
      return { texts: chunk.plants.map(storedPlantJson), next: chunk.next };
    });
  return pagedAnswer(read, page, (cursor) => `${request.path}?limit=${page.limit}&cursor=${cursor}`);
};

/** Reads a page of stored entries as JSON texts, `limit` at most, from `cursor`. */
export type PageReader = (cursor: string | undefined, limit: number) => Promise<{ readonly texts: readonly string[]; readonly next?: string | undefined }>;

/**
 * A list page as the control API answers it (plants and every resource's items alike): filled in
 * chunks up to the page's limit or about 1 MiB of JSON, with `Link` and `Plantstore-Next-Cursor`
 * when more follow. An absent reader (a tenant that holds nothing) is an empty page.
 */
export async function pagedAnswer(
  read: PageReader | undefined,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  nextUrl: (cursor: string) => string,
): Promise<Outcome> {
  const parts: string[] = [];
  let bytes = 2;
  let cursor = page.cursor;
  while (read && parts.length < page.limit && bytes < PAGE_BYTES) {
    const chunk = await read(cursor, Math.min(READ_CHUNK, page.limit - parts.length));
    for (const text of chunk.texts) {
      parts.push(text);
      bytes += text.length + 1;
    }
    cursor = chunk.next;
    if (cursor === undefined) break;
  }
  const body = `[${parts.join(',')}]`;
  if (cursor === undefined) return json(200, body);
  const next = nextUrl(cursor);
  return { ok: true, answer: { status: 200, headers: { ...JSON_HEADERS, link: `<${next}>; rel="next"`, [NEXT_CURSOR_HEADER]: cursor }, body } };
}

export const NEXT_CURSOR_HEADER = 'plantstore-next-cursor';

/** `limit` and `cursor` from the query; the document checks their form, this checks them again for another document. */
export function pageQuery(
  query: HandlerContext['request']['query'],
): { ok: true; limit: number; cursor: string | undefined } | { ok: false; refusal: Outcome } {
  const limitText = query.limit;
  const cursor = query.cursor;
  if (Array.isArray(limitText) || Array.isArray(cursor)) return { ok: false, refusal: refused('schemaViolation', 'limit and cursor may each be given once') };
  const limit = limitText === undefined ? LIST_LIMITS.default : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMITS.max) {
    return { ok: false, refusal: refused('schemaViolation', `limit must be a whole number from 1 to ${LIST_LIMITS.max}, not "${limitText ?? ''}"`) };
  }
  if (cursor !== undefined && !isCursor(cursor)) {
    return {
      ok: false,
      refusal: refused(
        'schemaViolation',
        `cursor "${cursor}" is not one this server gave; use the Plantstore-Next-Cursor of the previous page, or leave it out to start`,
      ),
    };
  }
  return { ok: true, limit, cursor };
}

export const seedPlants: ControlHandler = async ({ body, tenant }, { stores }) => {
  const plants = Array.isArray(body) ? body.map(toPlant) : [undefined];
  if (plants.some((plant) => plant === undefined)) {
    // The document's schema already demands this; only a different control document gets here.
    return refused('internal', 'seedPlants was given a body that is not an array of NewPlant; the control document does not match plantstore');
  }
  const seeded = await durably(plantsOf(stores, tenant).then((store) => store.seed(plants as Plant[])));
  if (!seeded.ok) return seeded.refusal;
  const { created = 0, duplicates = [] } = seeded.value ?? {};
  return json(200, `{"created":${created},"duplicates":${idsJson(duplicates)}}`);
};

export const resetPlants: ControlHandler = async ({ tenant }, { stores }) => {
  const result = await durably(existingPlants(stores, tenant).then((store) => store?.reset()));
  return result.ok ? noContent() : result.refusal;
};

export const getPlant: ControlHandler = async ({ pathParameters, tenant }, { stores }) => {
  const id = parsePlantId(pathParameters.id);
  if (!id.ok) return id.refusal;
  const read = await durably(existingPlants(stores, tenant).then((store) => store?.get(id.id)));
  if (!read.ok) return read.refusal;
  const plant = read.value;
  return plant ? json(200, storedPlantJson(plant)) : notFound(noPlant(id.id));
};

export const deletePlant: ControlHandler = async ({ pathParameters, tenant }, { stores }) => {
  const id = parsePlantId(pathParameters.id);
  if (!id.ok) return id.refusal;
  const deleted = await durably(existingPlants(stores, tenant).then((store) => store?.delete(id.id)));
  if (!deleted.ok) return deleted.refusal;
  return deleted.value ? noContent() : notFound(noPlant(id.id));
};

/** The tenant's plants: the 'plants' collection, made on first use. */
function plantsOf(stores: ResourceStores, tenant: string): Promise<PlantStore> {
  return stores.forTenant(tenant).then((items) => plantStoreOf(items.collection(PLANTS)));
}

/** The plants of a tenant that exists; undefined (without making it) when it does not. */
function existingPlants(stores: ResourceStores, tenant: string): Promise<PlantStore | undefined> {
  return stores.existing(tenant).then((items) => items && plantStoreOf(items.collection(PLANTS)));
}

/** A change the store could not make durable (--data-dir), or a tenant it could not load: the store's 503, as createPlant answers it. */
export async function durably<T>(change: Promise<T>): Promise<{ ok: true; value: T | undefined } | { ok: false; refusal: Outcome }> {
  try {
    return { ok: true, value: await change };
  } catch (error) {
    return {
      ok: false,
      refusal: refused(
        'storageFailed',
        `the change could not be stored durably, so it was not made: ${error instanceof Error ? error.message : String(error)}`,
      ),
    };
  }
}

/** A path id parsed exactly: digits only, within int64 (BigInt alone would take "0x1f" and " 1"). */
export function parsePlantId(text: string | undefined): { ok: true; id: bigint } | { ok: false; refusal: Outcome } {
  const id = text === undefined ? undefined : parseInt64(text);
  if (id === undefined) {
    return {
      ok: false,
      refusal: refused('invalidId', `the plant id must be an int64 in decimal without leading zeros (${INT64_MIN} to ${INT64_MAX}), not "${text ?? ''}"`),
    };
  }
  return { ok: true, id };
}

function noPlant(id: bigint): string {
  return `no plant has id ${id}`;
}

/** A NewPlant the document has validated: integer ids arrive as numbers, or bigints beyond 2^53. */
function toPlant(value: unknown): Plant | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, name, tag } = value as Record<string, unknown>;
  const exactId = typeof id === 'bigint' ? id : typeof id === 'number' && Number.isSafeInteger(id) ? BigInt(id) : undefined;
  if (exactId === undefined || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return undefined;
  return tag === undefined ? { id: exactId, name } : { id: exactId, name, tag };
}
