/**
 * JSON values as the suite generates and sends them. int64 numbers are bigint so that they
 * reach the wire digit for digit: a JS number cannot hold 9007199254740993. Reading and writing
 * their exact text is src/core/json/exact-json.ts (shared with the server); this file adds what
 * the suite does with values.
 */
import { integerFromJsonNumber, type JsonValue } from '../../src/core/json/exact-json.js';

export { parseJsonExact, toJsonText, type JsonValue } from '../../src/core/json/exact-json.js';

export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds an object whose every key is an own, enumerable property, `__proto__` included:
 * plain assignment of `__proto__` would set the prototype instead and the key would vanish from the body.
 */
export function jsonObject(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  const object: JsonObject = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** The object's entries in key order (own enumerable string keys, `__proto__` included). */
export function jsonEntries(object: JsonObject): Array<[string, JsonValue]> {
  return Object.keys(object).map((key) => [key, object[key] as JsonValue]);
}

/** A copy of `object` without `key`, other keys in their order. */
export function withoutKey(object: JsonObject, key: string): JsonObject {
  return jsonObject(jsonEntries(object).filter(([k]) => k !== key));
}

/** A copy of `object` with `key` set to `value` (in place if present, appended otherwise). */
export function withKey(object: JsonObject, key: string, value: JsonValue): JsonObject {
  const entries = jsonEntries(object);
  const at = entries.findIndex(([k]) => k === key);
  if (at === -1) entries.push([key, value]);
  else entries[at] = [key, value];
  return jsonObject(entries);
}

/**
 * Deep equality of JSON values. A bigint equals a number when both are the same integer, or when both
 * are written the same in JSON: a double above 2^53 such as 98370357839424016 is written
 * "98370357839424020", which parseJsonExact reads back as that bigint.
 */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
    const [big, num] = typeof a === 'bigint' ? [a, b as number] : [b as bigint, a];
    // The double itself, or the exact value of the text it is written as (1.0000000000000001e+21 is
    // 1000000000000000100000, which a server reading exactly says back in digits).
    return Number.isInteger(num) && (BigInt(num) === big || integerFromJsonNumber(JSON.stringify(num)) === big);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEquals(item, b[i] as JsonValue));
  }
  if (isJsonObject(a) || isJsonObject(b)) {
    if (!isJsonObject(a) || !isJsonObject(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEquals(a[key] as JsonValue, b[key] as JsonValue))
    );
  }
  return a === b;
}
