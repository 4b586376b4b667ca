import type { Item, ItemFields, ItemKey } from './item-store.js';
import type { StoreChange } from './memory-store.js';
import { PLANTS } from './plant-store.js';
import type { TenantId } from './tenants.js';
import { parseInt64 } from '../core/json/int64.js';
import type { JsonValue } from '../core/json/exact-json.js';

/** One line of a tenant log: a change of one of the tenant's collections. */
export interface LogRecord {
  readonly tenant: TenantId;
  readonly collection: string;
  readonly change: StoreChange;
}

export type DecodedRecord = { readonly ok: true; readonly record: LogRecord } | { readonly ok: false; readonly reason: string };

/**
 * The record as one JSON line with its newline:
 *   {"tenant":"shared","collection":"plants","kind":"create","id":"7","fields":{"id":7,"name":"Fern"}}
 * An integer key is "id", in decimal digits (a JSON number would round beyond 2^53); a string key
 * is "key". The fields are the item's JSON, except that an integer beyond 2^53 is written as its
 * digits in a string and its place named in "bigints" (JSON pointers): exact, and still read by
 * JSON.parse at full speed on a restart. JSON.stringify escapes newlines inside strings, so a
 * record never spans lines. Records of earlier versions ({tenant, kind, id, name, tag}, no
 * collection) are plants, and still read.
 */
export function encodeRecord(tenant: TenantId, collection: string, change: StoreChange): string {
  const head = `{"tenant":${JSON.stringify(tenant)},"collection":${JSON.stringify(collection)},"kind":"${change.kind}"`;
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
  return `${keyText(item.id)},"fields":${JSON.stringify(fields)}${bigints.length > 0 ? `,"bigints":${JSON.stringify(bigints)}` : ''}`;
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

/** Reads one line (without its newline); a line that is not a whole record says why. */
export function decodeRecord(line: string): DecodedRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${(error as Error).message})` };
  }
  return recordOf(value);
}

type Fields = Record<string, unknown>;
type Read<T> = T | Problem;

const problem = (text: string): Problem => ({ problem: text });
interface Problem {
  readonly problem: string;
}
function failed<T>(value: T | Problem): value is Problem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** A parsed line as a record, or why it is not one. Takes the parsed objects over (no copy): they are the item's fields. */
export function recordOf(value: unknown): DecodedRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const fields = value as Fields;
  const { tenant, kind, collection } = fields;
  if (typeof tenant !== 'string' || tenant === '') return { ok: false, reason: 'no "tenant" string' };
  if (collection === undefined) return legacyRecord(tenant, kind, fields);
  if (typeof collection !== 'string' || collection === '') return { ok: false, reason: '"collection" is not a name' };
  const change = changeOf(kind, fields);
  return failed(change) ? { ok: false, reason: change.problem } : { ok: true, record: { tenant, collection, change } };
}

function changeOf(kind: unknown, fields: Fields): Read<StoreChange> {
  switch (kind) {
    case 'reset':
      return { kind: 'reset' };
    case 'delete': {
      const id = readKey(fields);
      return typeof id === 'object' ? id : { kind: 'delete', id };
    }
    case 'create':
    case 'replace': {
      const item = readItem(fields);
      return failed(item) ? item : { kind, item };
    }
    case 'allocate': {
      const value = readCounter(fields.value, 'value');
      return typeof value === 'bigint' ? { kind: 'allocate', value } : value;
    }
    case 'seed': {
      if (!Array.isArray(fields.items)) return problem('seed without an "items" list');
      const items: Item[] = [];
      for (const entry of fields.items as unknown[]) {
        if (typeof entry !== 'object' || entry === null) return problem('a seed item is not an object');
        const item = readItem(entry as Fields);
        if (failed(item)) return item;
        items.push(item);
      }
      if (fields.allocated === undefined) return { kind: 'seed', items };
      const allocated = readCounter(fields.allocated, 'allocated');
      return typeof allocated === 'bigint' ? { kind: 'seed', items, allocated } : allocated;
    }
    default:
      return problem(`unknown "kind" ${JSON.stringify(kind) ?? 'undefined'}`);
  }
}

function readItem(fields: Fields): Read<Item> {
  const id = readKey(fields);
  if (typeof id === 'object') return id;
  const values = fields.fields;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return problem('an item without a "fields" object');
  const { bigints } = fields;
  if (bigints === undefined) return { id, fields: values as ItemFields };
  if (!Array.isArray(bigints)) return problem('"bigints" is not a list');
  // A copy takes the integers: writing a bigint where JSON.parse put a string would change the
  // shape V8 gave every object parsed like it, and slow down the replay of every later record.
  const copy: Fields = {};
  for (const key of Object.keys(values)) {
    // `__proto__` stays an own key, as it was in the item.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: (values as Fields)[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = (values as Fields)[key];
  }
  for (const pointer of bigints as unknown[]) {
    const restored = restoreBigint(copy, pointer, id);
    if (restored !== undefined) return problem(restored);
  }
  return { id, fields: copy as ItemFields };
}

/** Puts the exact integer back where a pointer says its digits are; a reason when it cannot. */
function restoreBigint(root: Fields, pointer: unknown, id: ItemKey): string | undefined {
  if (typeof pointer !== 'string' || !pointer.startsWith('/')) return `"bigints" holds ${JSON.stringify(pointer)}, not a JSON pointer`;
  const steps = pointer
    .slice(1)
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
  let holder: unknown = root;
  for (const step of steps.slice(0, -1)) holder = typeof holder === 'object' && holder !== null ? (holder as Fields)[step] : undefined;
  const last = steps[steps.length - 1] as string;
  const digits = typeof holder === 'object' && holder !== null ? (holder as Fields)[last] : undefined;
  if (typeof digits !== 'string' || !/^-?[0-9]+$/.test(digits)) return `"bigints" names ${pointer}, which holds no digits`;
  // The key's bigint is shared with the field that holds it (a million plants: one bigint each, not two).
  (holder as Fields)[last] = typeof id === 'bigint' && digits === id.toString() ? id : BigInt(digits);
  return undefined;
}

function readKey(fields: Fields): ItemKey | { readonly problem: string } {
  if (fields.id === undefined && typeof fields.key === 'string') return fields.key;
  const id = readId(fields.id);
  return typeof id === 'string' ? problem(id) : id;
}

function readCounter(value: unknown, name: string): bigint | { readonly problem: string } {
  const number = typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value) : undefined;
  return number ?? problem(`"${name}" is not a count in decimal digits: ${JSON.stringify(value) ?? 'undefined'}`);
}

/** A record of earlier versions: a plant, {tenant, kind, id, name, tag}. */
function legacyRecord(tenant: TenantId, kind: unknown, fields: Fields): DecodedRecord {
  const record = (change: StoreChange): DecodedRecord => ({ ok: true, record: { tenant, collection: PLANTS, change } });
  switch (kind) {
    case 'reset':
      return record({ kind: 'reset' });
    case 'delete': {
      const id = readId(fields.id);
      return typeof id === 'string' ? { ok: false, reason: id } : record({ kind: 'delete', id });
    }
    case 'create': {
      const id = readId(fields.id);
      if (typeof id === 'string') return { ok: false, reason: id };
      const { name, tag } = fields;
      if (typeof name !== 'string') return { ok: false, reason: 'create without a "name" string' };
      if (tag !== undefined && typeof tag !== 'string') return { ok: false, reason: '"tag" is not a string' };
      const idField = id >= -MAX_SAFE && id <= MAX_SAFE ? Number(id) : id;
      return record({ kind: 'create', item: { id, fields: tag === undefined ? { id: idField, name } : { id: idField, name, tag } } });
    }
    default:
      return { ok: false, reason: `unknown "kind" ${JSON.stringify(kind) ?? 'undefined'}` };
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The id, or why it is not an int64 written as a decimal string. */
function readId(id: unknown): bigint | string {
  // The shape is checked apart from the range only to say which of the two is wrong.
  if (typeof id !== 'string' || !/^(?:0|-?[1-9][0-9]*)$/.test(id)) return `"id" is not a decimal integer string: ${JSON.stringify(id) ?? 'undefined'}`;
  return parseInt64(id) ?? `"id" ${id} is outside int64`;
}
