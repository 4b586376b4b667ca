/** The two ways an update's body changes an item: JSON Merge Patch (RFC 7396) and a shallow merge. */
import type { JsonValue } from '../../core/json/exact-json.js';
import { objectShape } from '../../core/schema/properties.js';
import { typeOf } from '../../core/schema/types.js';

export type JsonObject = { [key: string]: JsonValue };

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value !== 'bigint';
}

/**
 * RFC 7396 §2: an object patch merges member by member (null removes a member, an object merges
 * into an object, anything else replaces it); a patch that is not an object replaces the target.
 * The members named in `whole` (alternativeObjects) are replaced, not merged.
 */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue, whole: ReadonlySet<string> = NONE): JsonValue {
  if (!isObject(patch)) return patch;
  const result: JsonObject = isObject(target) ? copy(target) : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    // One of several objects (DigitalOcean's autoscale config: static or dynamic) is replaced whole: two merged fit neither, or both.
    else if (whole.has(name)) define(result, name, value);
    else define(result, name, mergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value));
  }
  return result;
}

const NONE: ReadonlySet<string> = new Set();

/** The item's top-level properties declared as one of several objects (oneOf/anyOf of two or more, null aside). */
export function alternativeObjects(itemSchema: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [name, schema] of objectShape(itemSchema, { direction: 'response' }).properties) {
    const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
    if (branches.filter((branch) => typeOf(branch) === 'object').length >= 2) names.add(name);
  }
  return names;
}

/** The given properties replace the stored ones; the others stay. */
export function shallowMerge(target: Readonly<JsonObject>, patch: Readonly<JsonObject>): JsonObject {
  const result = copy(target);
  for (const [name, value] of Object.entries(patch)) define(result, name, value);
  return result;
}

function copy(source: Readonly<JsonObject>): JsonObject {
  const result: JsonObject = {};
  for (const [name, value] of Object.entries(source)) define(result, name, value);
  return result;
}

/** defineProperty, not assignment: a "__proto__" member stays an own property. */
export function define(target: JsonObject, name: string, value: JsonValue): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
