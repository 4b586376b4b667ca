import type { Item, ItemFields, ItemKey } from './item-store.js';
import type { StoreChange } from './memory-store.js';
import { PLANTS } from './plant-store.js';
import type { TenantId } from './tenants.js';
import { isInt64, narrow, parseInt64 } from '../core/json/int64.js';
import type { JsonValue } from '../core/json/exact-json.js';

/** One line of a tenant log: a change of one of the tenant's collections. */
export interface LogRecord {
  readonly tenant: TenantId;
  readonly collection: string;
  readonly change: StoreChange;
}

export type DecodedRecord = { readonly ok: true; readonly record: LogRecord } | { readonly ok: false; readonly reason: string };

/** Takes a record's change as it is read. */
export type ApplyRecord = (tenant: TenantId, collection: string, change: StoreChange) => void;

/**
 * The record as one JSON line with its newline, as short as the common case allows (a restart
 * parses a million of them):
 *   {"kind":"create","fields":{"id":7,"name":"Fern"}}
 *   {"collection":"owners","kind":"create","key":"ada","fields":{"name":"Ada"}}
 *   {"collection":"owners","kind":"delete","key":"ada"}
 * The tenant is the file's (each tenant has its own log), so it is not written; neither is the
 * collection when it is 'plants', the one collection of the first versions, nor an item's key
 * when its "id" field holds it (as a plant's does). Otherwise an integer key is "id", in decimal
 * digits (a JSON number would round beyond 2^53), and a string key is "key". The fields are the item's JSON, except that an integer beyond 2^53 is written as its
 * digits in a string and its place named in "bigints" (JSON pointers): exact, and still read by
 * JSON.parse at full speed on a restart. JSON.stringify escapes newlines inside strings, so a
 * record never spans lines. Records of earlier versions are still read: those naming their
 * "tenant" and "collection", and the first ones ({tenant, kind, id, name, tag}: plants).
 */
export function encodeRecord(collection: string, change: StoreChange): string {
  const head = collection === PLANTS ? `{"kind":"${change.kind}"` : `{"collection":${JSON.stringify(collection)},"kind":"${change.kind}"`;
  switch (change.kind) {
    case 'create':
    case 'replace':
      return `${head},${itemText(change.item)}}\n`;
    case 'delete':
      return `${head},${keyText(change.id)}}\n`;
    case 'reset':
      return `${head}}\n`;
    case 'allocate':
      return `${head},"value":"${change.value}"}\n`;
    case 'seed': {
      const allocated = change.allocated === undefined ? '' : `,"allocated":"${change.allocated}"`;
      return `${head},"items":[${change.items.map((item) => `{${itemText(item)}}`).join(',')}]${allocated}}\n`;
    }
  }
}

function keyText(id: ItemKey): string {
  return typeof id === 'bigint' ? `"id":"${id}"` : `"key":${JSON.stringify(id)}`;
}

function itemText(item: Item): string {
  const bigints: string[] = [];
  const fields = hasBigint(item.fields) ? withDigits(item.fields, '', bigints) : item.fields;
  const key = keyInFields(item) ? '' : `${keyText(item.id)},`;
  return `${key}"fields":${JSON.stringify(fields)}${bigints.length > 0 ? `,"bigints":${JSON.stringify(bigints)}` : ''}`;
}

/** Whether the item's "id" field is its key, as a reader takes it from there (keyOfFields). */
function keyInFields({ id, fields }: Item): boolean {
  const field = fields.id;
  if (typeof id === 'string' || typeof field === 'bigint') return field === id;
  return typeof field === 'number' && narrow(id) === field;
}

/** The key of an item written without one: its "id" field, an integer (exact) or a string. */
function keyOfFields(values: Fields): ItemKey | { readonly problem: string } {
  const field = values.id;
  if (typeof field === 'string') return field;
  if (typeof field === 'bigint' && isInt64(field)) return field;
  if (typeof field === 'number' && Number.isSafeInteger(field)) return BigInt(field);
  return { problem: 'an item with neither "id" nor "key", whose fields hold no int64 or string "id" to be its key' };
}

function hasBigint(value: JsonValue | ItemFields): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  for (const inner of Object.values(value)) if (hasBigint(inner)) return true;
  return false;
}

/** A copy with every bigint as its digits, its JSON pointer added to `bigints`. */
function withDigits(value: JsonValue | ItemFields, at: string, bigints: string[]): JsonValue {
  if (typeof value === 'bigint') {
    bigints.push(at);
    return value.toString();
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((inner, index) => withDigits(inner as JsonValue, `${at}/${index}`, bigints));
  const copy: Record<string, JsonValue> = {};
  for (const [key, inner] of Object.entries(value)) copy[key] = withDigits(inner, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, bigints);
  return copy;
}

/** Reads one line (without its newline) of `tenant`'s file; a line that is not a whole record says why. */
export function decodeRecord(line: string, tenant?: TenantId): DecodedRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${(error as Error).message})` };
  }
  return recordOf(value, tenant);
}

/** A parsed line as a record, or why it is not one. Takes the parsed objects over (no copy): they are the item's fields. */
export function recordOf(value: unknown, tenant?: TenantId): DecodedRecord {
  let record: LogRecord | undefined;
  const reason = readRecord(value, tenant, (tenant, collection, change) => (record = { tenant, collection, change }));
  return record ? { ok: true, record } : { ok: false, reason: reason ?? 'not a record' };
}

/**
 * Hands the change a parsed line holds to `apply` (the replay's path: nothing is made around it),
 * or answers why the line is not a record. A record without "tenant" is `fileTenant`'s.
 */
export function readRecord(value: unknown, fileTenant: TenantId | undefined, apply: ApplyRecord): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const fields = value as Fields;
  const { kind, collection } = fields;
  const tenant = fields.tenant ?? fileTenant;
  if (typeof tenant !== 'string' || tenant === '') return 'no "tenant" string';
  if (collection !== undefined && (typeof collection !== 'string' || collection === '')) return '"collection" is not a name';
  // The first versions' plant records hold the name and tag where later ones hold "fields".
  const change = collection === undefined && kind === 'create' && fields.fields === undefined ? legacyCreate(fields) : changeOf(kind, fields);
  if (typeof change === 'string') return change;
  apply(tenant, collection ?? PLANTS, change);
  return undefined;
}

type Fields = Record<string, unknown>;
/** A value read, or why it cannot be (a string: no value read here is a string). */
type Read<T> = T | string;

function changeOf(kind: unknown, fields: Fields): Read<StoreChange> {
  switch (kind) {
    case 'create':
    case 'replace': {
      const item = readItem(fields);
      return typeof item === 'string' ? item : { kind, item };
    }
    case 'reset':
      return { kind: 'reset' };
    case 'delete': {
      const id = readKey(fields);
      return typeof id === 'object' ? id.problem : { kind: 'delete', id };
    }
    case 'allocate': {
      const value = readCounter(fields.value, 'value');
      return typeof value === 'bigint' ? { kind: 'allocate', value } : value;
    }
    case 'seed': {
      if (!Array.isArray(fields.items)) return 'seed without an "items" list';
      const items: Item[] = [];
      for (const entry of fields.items as unknown[]) {
        if (typeof entry !== 'object' || entry === null) return 'a seed item is not an object';
        const item = readItem(entry as Fields);
        if (typeof item === 'string') return item;
        items.push(item);
      }
      if (fields.allocated === undefined) return { kind: 'seed', items };
      const allocated = readCounter(fields.allocated, 'allocated');
      return typeof allocated === 'bigint' ? { kind: 'seed', items, allocated } : allocated;
    }
    default:
      return `unknown "kind" ${JSON.stringify(kind) ?? 'undefined'}`;
  }
}

function readItem(fields: Fields): Read<Item> {
  const values = fields.fields;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return 'an item without a "fields" object';
  const id = fields.id === undefined && fields.key === undefined ? undefined : readKey(fields);
  if (typeof id === 'object') return id.problem;
  const { bigints } = fields;
  if (bigints !== undefined) {
    if (!Array.isArray(bigints)) return '"bigints" is not a list';
    // The digits are replaced where JSON.parse put them: the fields are a string there (kept
    // apart from a number by V8), so a bigint takes the place without changing the object's shape.
    for (const pointer of bigints as unknown[]) {
      const restored = restoreBigint(values as Fields, pointer, id, fields.id);
      if (restored !== undefined) return restored;
    }
  }
  const key = id ?? keyOfFields(values as Fields);
  return typeof key === 'object' ? key.problem : { id: key, fields: values as ItemFields };
}

/**
 * Puts the exact integer back where a pointer says its digits are; a reason when it cannot. A
 * top-level field (the common case: a plant's "id") is found without splitting the pointer; a
 * field holding the key the record names apart is given the key's bigint, not a second one.
 */
function restoreBigint(root: Fields, pointer: unknown, id: ItemKey | undefined, keyDigits: unknown): string | undefined {
  if (typeof pointer !== 'string' || !pointer.startsWith('/')) return `"bigints" holds ${JSON.stringify(pointer)}, not a JSON pointer`;
  let holder: unknown = root;
  let last: string;
  if (pointer.indexOf('/', 1) === -1 && !pointer.includes('~')) last = pointer.slice(1);
  else {
    const steps = pointer
      .slice(1)
      .split('/')
      .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
    for (const step of steps.slice(0, -1)) holder = typeof holder === 'object' && holder !== null ? (holder as Fields)[step] : undefined;
    last = steps[steps.length - 1] as string;
  }
  const digits = typeof holder === 'object' && holder !== null ? (holder as Fields)[last] : undefined;
  // The key's bigint is shared with the field that holds it (a million plants: one bigint each, not two).
  if (typeof id === 'bigint' && digits === keyDigits) (holder as Fields)[last] = id;
  else if (typeof digits !== 'string' || !/^-?[0-9]+$/.test(digits)) return `"bigints" names ${pointer}, which holds no digits`;
  else (holder as Fields)[last] = BigInt(digits);
  return undefined;
}

function readKey(fields: Fields): ItemKey | { readonly problem: string } {
  if (fields.id === undefined && typeof fields.key === 'string') return fields.key;
  const id = readId(fields.id);
  return typeof id === 'string' ? { problem: id } : id;
}

function readCounter(value: unknown, name: string): bigint | string {
  const number = typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value) : undefined;
  return number ?? `"${name}" is not a count in decimal digits: ${JSON.stringify(value) ?? 'undefined'}`;
}

/** A plant's create as the first versions wrote it: {tenant, kind, id, name, tag}. */
function legacyCreate(fields: Fields): Read<StoreChange> {
  const id = readId(fields.id);
  if (typeof id === 'string') return id;
  const { name, tag } = fields;
  if (typeof name !== 'string') return 'create without a "name" string';
  if (tag !== undefined && typeof tag !== 'string') return '"tag" is not a string';
  const idField = narrow(id);
  return { kind: 'create', item: { id, fields: tag === undefined ? { id: idField, name } : { id: idField, name, tag } } };
}

/** The id, or why it is not an int64 written as a decimal string. */
function readId(id: unknown): bigint | string {
  const value = typeof id === 'string' ? parseInt64(id) : undefined;
  if (value !== undefined) return value;
  // The shape is checked apart from the range only to say which of the two is wrong.
  if (typeof id !== 'string' || !/^(?:0|-?[1-9][0-9]*)$/.test(id)) return `"id" is not a decimal integer string: ${JSON.stringify(id) ?? 'undefined'}`;
  return `"id" ${id} is outside int64`;
}
