/**
 * The one identifier reader, between an identifier's three forms: the text of a path segment (or a
 * control API path), the JSON value of an item's property, and the store's key (an integer as an
 * exact bigint, anything else a string). Exact and one text per item: an integer in canonical
 * decimal within its bounds ("007", "+7" and "-0" name nothing), a uuid validated and kept lower
 * case (so a uuid seeded in upper case is the one the API's path names), a string as written.
 * The server's handlers, the control API and the seed all read keys here.
 */
import type { JsonValue } from '../json/exact-json.js';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, isInt64, narrow, parseInt64 } from '../json/int64.js';
import { isPrismBound } from '../prism/int64-bounds.js';
import type { IdentifierType, ItemKey, StringRules } from '../resources/model.js';
import { isSchema, normalise, type Schema } from './normalise.js';
import { formatOf, typeOf } from './types.js';

export type KeyRead = { readonly ok: true; readonly key: ItemKey } | { readonly ok: false; readonly reason: string };

/** An identifier as the reader needs it: its type, and its property's name for the reasons. */
export interface KeyOwner {
  readonly property: string;
  readonly type: IdentifierType;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key an identifier's text names ("42" of an int64 id is 42n; a uuid in any case, lower-cased). */
export function keyOfText(owner: KeyOwner, text: string): KeyRead {
  const { type, property } = owner;
  switch (type.kind) {
    case 'integer': {
      const key = parseInt64(text);
      if (key !== undefined && key >= type.minimum && key <= type.maximum) return { ok: true, key };
      const kind = type.minimum === INT64_MIN && type.maximum === INT64_MAX ? 'an int64' : 'a whole number';
      return {
        ok: false,
        reason: `${property} must be ${kind} in decimal without leading zeros, from ${type.minimum} to ${type.maximum}, not ${shown(text)}`,
      };
    }
    case 'uuid':
      return UUID.test(text) ? { ok: true, key: text.toLowerCase() } : { ok: false, reason: `${property} must be a uuid, not ${shown(text)}` };
    default:
      return text === '' ? { ok: false, reason: `${property} must not be empty` } : { ok: true, key: text };
  }
}

/**
 * The key an item's property value names: an integer identifier takes a whole number a JS number
 * holds exactly, or a bigint (never digits in a string: JSON says what it is); a uuid or string
 * identifier takes a string (a string identifier also a whole number, as its decimal text).
 */
export function keyOfValue(owner: KeyOwner, value: JsonValue | undefined): KeyRead {
  if (owner.type.kind === 'integer') {
    const exact = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
    if (exact === undefined) return { ok: false, reason: `${owner.property} must be a whole number, not ${describe(value)}` };
    // Within int64 and the type's bounds the text would read back as this very bigint (every create comes here); the text words a refusal.
    if (isInt64(exact) && exact >= owner.type.minimum && exact <= owner.type.maximum) return { ok: true, key: exact };
    return keyOfText(owner, exact.toString());
  }
  // Any string is a string identifier's value, "" too (a path segment cannot name it, a body can).
  if (typeof value === 'string') return owner.type.kind === 'uuid' ? keyOfText(owner, value) : { ok: true, key: value };
  const whole = typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));
  if (owner.type.kind === 'string' && whole) return { ok: true, key: String(value) };
  return { ok: false, reason: `${owner.property} must be a string, not ${describe(value)}` };
}

/** The key, or undefined when the read refused it. */
export function keyOrNothing(read: KeyRead): ItemKey | undefined {
  return read.ok ? read.key : undefined;
}

/** The key as an item's property holds it: an integer a JS number holds exactly is a number, a larger one a bigint. */
export function valueOfKey(key: ItemKey): JsonValue {
  return typeof key === 'string' ? key : narrow(key);
}

/** How a key reads in a message or a JSON text: an integer's digits, a string quoted. */
export function keyText(key: ItemKey): string {
  return typeof key === 'bigint' ? key.toString() : JSON.stringify(key);
}

/**
 * An identifier's type from its property's schema: an integer within its format (narrowed by
 * minimum/maximum), a uuid, or a string with the pattern, lengths and format its schema asks for.
 */
export function identifierType(schema: unknown): IdentifierType {
  if (typeOf(schema) === 'integer' && isSchema(schema)) {
    const flat = normalise(schema);
    let [minimum, maximum] = formatOf(flat) === 'int32' ? [INT32_MIN, INT32_MAX] : [INT64_MIN, INT64_MAX];
    // prism gives every int64 schema the bounds ±(2^53 − 1): only the author's narrow an identifier.
    const lower = bound(isPrismBound(flat, 'minimum') ? undefined : flat.minimum, flat.exclusiveMinimum, 'lower');
    const upper = bound(isPrismBound(flat, 'maximum') ? undefined : flat.maximum, flat.exclusiveMaximum, 'upper');
    if (lower !== undefined && lower > minimum) minimum = lower;
    if (upper !== undefined && upper < maximum) maximum = upper;
    return { kind: 'integer', minimum, maximum };
  }
  if (formatOf(schema) === 'uuid') return { kind: 'uuid' };
  const type = typeOf(schema);
  // A number identifier (common-parameters.yaml) is keyed by its text too; its format (double) asks nothing of that text.
  const rules = isSchema(schema) && (type === 'string' || type === undefined) ? stringRules(normalise(schema)) : undefined;
  return rules === undefined ? { kind: 'string' } : { kind: 'string', rules };
}

/** What a string identifier's schema asks of its text; undefined when it asks nothing (any text, as before). */
function stringRules(flat: Schema): StringRules | undefined {
  const length = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);
  const rules: { pattern?: string; minLength?: number; maxLength?: number; format?: string } = {};
  if (typeof flat.pattern === 'string') rules.pattern = flat.pattern;
  const minLength = length(flat.minLength);
  if (minLength !== undefined && minLength > 0) rules.minLength = minLength;
  const maxLength = length(flat.maxLength);
  if (maxLength !== undefined) rules.maxLength = maxLength;
  if (typeof flat.format === 'string') rules.format = flat.format;
  return Object.keys(rules).length === 0 ? undefined : rules;
}

/** The smallest (or largest) integer a bound admits: 3.1's numeric exclusive bounds and 3.0's boolean ones. */
function bound(inclusive: unknown, exclusive: unknown, side: 'lower' | 'upper'): bigint | undefined {
  const step = side === 'lower' ? 1n : -1n;
  const round = side === 'lower' ? Math.ceil : Math.floor;
  const candidates: bigint[] = [];
  if (typeof inclusive === 'number' && Number.isFinite(inclusive)) {
    const value = BigInt(round(inclusive));
    candidates.push(exclusive === true && Number.isInteger(inclusive) ? value + step : value);
  }
  if (typeof exclusive === 'number' && Number.isFinite(exclusive)) {
    candidates.push(Number.isInteger(exclusive) ? BigInt(exclusive) + step : BigInt(round(exclusive)));
  }
  if (candidates.length === 0) return undefined;
  return candidates.reduce((a, b) => (side === 'lower' ? (a > b ? a : b) : a < b ? a : b));
}

function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'bigint') return value.toString();
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
