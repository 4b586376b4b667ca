/**
 * Identifiers between their three forms: the text of a path segment, the JSON value of a body's
 * property, and the store's key (int64 as an exact bigint, anything else as a string).
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../core/json/exact-json.js';
import { parseInt64 } from '../../core/json/int64.js';
import type { IdentifierType, ItemKey } from '../../core/resources/model.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The key a path segment names, read exactly by the identifier's type: an integer in canonical
 * decimal within its bounds (no "007", no "+7": one text per item), a uuid (any case, kept lower
 * case), or any text. Undefined when the text is no identifier of this type.
 */
export function keyFromPath(type: IdentifierType, text: string): ItemKey | undefined {
  switch (type.kind) {
    case 'integer': {
      const value = parseInt64(text);
      return value !== undefined && value >= type.minimum && value <= type.maximum ? value : undefined;
    }
    case 'uuid':
      return UUID.test(text) ? text.toLowerCase() : undefined;
    default:
      return text === '' ? undefined : text;
  }
}

/** The key a body's value names; undefined when it is not one of this type (a fraction, an object, …). */
export function keyFromValue(type: IdentifierType, value: JsonValue | undefined): ItemKey | undefined {
  switch (type.kind) {
    case 'integer': {
      const exact = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
      return exact !== undefined && exact >= type.minimum && exact <= type.maximum ? exact : undefined;
    }
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
    default:
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
  }
}

/** The key as an item's property holds it: an integer a JS number holds exactly is a number, a larger one a bigint. */
export function valueOfKey(key: ItemKey): JsonValue {
  if (typeof key === 'string') return key;
  return key >= -9007199254740991n && key <= 9007199254740991n ? Number(key) : key;
}

/**
 * A server-assigned key from the collection's allocation sequence (1, 2, 3, …): integers count
 * up from the type's lowest value when that is above 1 and from 1 otherwise; a uuid is random
 * (crypto.randomUUID); other strings are the number in decimal. Undefined when the integer
 * bounds are used up.
 */
export function allocatedKey(type: IdentifierType, sequence: bigint): ItemKey | undefined {
  switch (type.kind) {
    case 'integer': {
      const start = type.minimum > 1n ? type.minimum : 1n;
      const value = start + sequence - 1n;
      return value <= type.maximum ? value : undefined;
    }
    case 'uuid':
      return randomUUID();
    default:
      return sequence.toString();
  }
}

/** How a key reads in a message: the number, or the text quoted. */
export function keyText(key: ItemKey): string {
  return typeof key === 'bigint' ? key.toString() : JSON.stringify(key);
}
