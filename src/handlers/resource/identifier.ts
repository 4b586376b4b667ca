/**
 * Identifiers as the handlers need them: read from a path segment or a body's value by the one
 * identifier reader (core/schema/identifier.ts), which the control API and the seed share, and
 * allocated by the server.
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { IdentifierType, ItemKey } from '../../core/resources/model.js';
import { keyOfText, keyOfValue, keyOrNothing } from '../../core/schema/identifier.js';
import { stringKey, type MadeKey } from './string-key.js';

export { keyText, valueOfKey } from '../../core/schema/identifier.js';

/** The key a path segment names; undefined when the text is no identifier of this type. */
export function keyFromPath(type: IdentifierType, text: string): ItemKey | undefined {
  return keyOrNothing(keyOfText({ property: 'id', type }, text));
}

/** The key a body's value names; undefined when it is not one of this type (a fraction, an object, digits in a string, …). */
export function keyFromValue(type: IdentifierType, value: JsonValue | undefined): ItemKey | undefined {
  return keyOrNothing(keyOfValue({ property: 'id', type }, value));
}

/**
 * A server-assigned key from the collection's allocation sequence (1, 2, 3, …): integers count
 * up from the type's lowest value when that is above 1 and from 1 otherwise; a uuid is random
 * (crypto.randomUUID); a string is the number in decimal, or where its schema asks more (a
 * pattern, lengths, a format) a text made from the number that keeps it (string-key.ts). Undefined
 * when none can be made: the integer bounds are used up, or no text keeps the string's rules.
 * `scope` (the parents' path values) varies a drawn string between collections.
 */
export function allocatedKey(type: IdentifierType, sequence: bigint, scope?: string): MadeKey {
  switch (type.kind) {
    case 'integer': {
      const start = type.minimum > 1n ? type.minimum : 1n;
      const value = start + sequence - 1n;
      return value <= type.maximum ? value : undefined;
    }
    case 'uuid':
      return randomUUID();
    default:
      return type.rules === undefined ? sequence.toString() : stringKey(type.rules, sequence, scope);
  }
}
