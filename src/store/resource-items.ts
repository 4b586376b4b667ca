/**
 * Items of a resource as the store keeps them: the key read from the identifier property of a
 * JSON object (exactly: an integer identifier is a bigint key, never rounded), and a key read from
 * the text of a path or query. The store's one reading of the identifier, shared by the control
 * API and the seed.
 */
import type { JsonValue } from '../core/json/exact-json.js';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../core/json/int64.js';
import type { Identifier, Resource } from '../core/resources/model.js';
import type { Item, ItemFields, ItemKey } from './item-store.js';

export type KeyRead = { readonly ok: true; readonly key: ItemKey } | { readonly ok: false; readonly reason: string };

/** The key an identifier's text names ("42" of an int64 id is 42n; a string id is the text itself). */
export function keyOfText(identifier: Identifier, text: string): KeyRead {
  const { type } = identifier;
  if (type.kind !== 'integer') return { ok: true, key: text };
  const key = parseInt64(text);
  if (key === undefined || key < type.minimum || key > type.maximum) {
    return {
      ok: false,
      reason: `${identifier.property} must be ${type.minimum === INT64_MIN && type.maximum === INT64_MAX ? 'an int64' : 'a whole number'} in decimal without leading zeros, from ${type.minimum} to ${type.maximum}, not "${text}"`,
    };
  }
  return { ok: true, key };
}

/** The key of a property value: an integer (a number, a bigint, or its digits in a string) for an integer identifier, a string otherwise. */
export function keyOfValue(identifier: Identifier, value: JsonValue | undefined): KeyRead {
  if (identifier.type.kind !== 'integer') {
    return typeof value === 'string' ? { ok: true, key: value } : { ok: false, reason: `${identifier.property} must be a string, not ${describe(value)}` };
  }
  if (typeof value === 'string') return keyOfText(identifier, value);
  const key = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (key === undefined) return { ok: false, reason: `${identifier.property} must be a whole number, not ${describe(value)}` };
  return keyOfText(identifier, key.toString());
}

export type ItemRead = { readonly ok: true; readonly item: Item } | { readonly ok: false; readonly reason: string };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A JSON object as an item of `resource`: keyed by its identifier property. An integer identifier
 * given as digits in a string is stored as the integer it spells (a number within 2^53, else a bigint).
 */
export function itemOfValue(resource: Pick<Resource, 'identifier'>, value: JsonValue): ItemRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: `an item must be a JSON object, not ${describe(value)}` };
  const { property } = resource.identifier;
  const key = keyOfValue(resource.identifier, value[property]);
  if (!key.ok) return key;
  const id = key.key;
  const fields: ItemFields = typeof id === 'bigint' && typeof value[property] === 'string' ? { ...value, [property]: integerValue(id) } : value;
  return { ok: true, item: { id, fields } };
}

/** An integer as an item's fields hold it: a number within 2^53, a bigint beyond. */
export function integerValue(value: bigint): number | bigint {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

/** A key as JSON: an integer's digits, a string quoted. */
export function keyJson(key: ItemKey): string {
  return typeof key === 'bigint' ? key.toString() : JSON.stringify(key);
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'bigint') return value.toString();
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
