/**
 * The one property walker: an object schema's properties (allOf merged by normalise's rule, each
 * property normalised in turn), which are required, which are readOnly or writeOnly, and whether
 * the object is open to others. Read by direction, as OpenAPI says: a request never carries a
 * readOnly property, an answer never holds a writeOnly one (and neither is required there).
 */
import { isSchema, normalise, type ReadOptions, type Schema } from './normalise.js';
import { typeOf } from './types.js';

/** Who a property list is for: a request body, an answer, or both (every property, flags kept). */
export type Direction = 'request' | 'response' | 'any';

export interface ObjectShape {
  /** Declared properties in the document's order (the parts in merge order), each normalised. */
  readonly properties: ReadonlyMap<string, Schema>;
  readonly required: ReadonlySet<string>;
  readonly readOnly: ReadonlySet<string>;
  readonly writeOnly: ReadonlySet<string>;
  /**
   * Whether properties beyond those declared belong too: the schema has no `properties`, or says so with
   * an explicit `additionalProperties` (true or a schema), or has alternatives (oneOf/anyOf) or a
   * `$ref` that cannot be followed. JSON Schema's implicit "others allowed" does not count: most
   * documents leave it unsaid, and the Plant Store's `Plant` (name, tag) must not answer the stored `id`.
   */
  readonly open: boolean;
}

export interface ShapeOptions extends ReadOptions {
  readonly direction?: Direction;
}

/** The object `schema` describes; no properties (and open) for anything that declares none. */
export function objectShape(schema: unknown, options: ShapeOptions = {}): ObjectShape {
  const direction = options.direction ?? 'any';
  const flat = normalise(schema, options);
  const properties = new Map<string, Schema>();
  const readOnly = new Set<string>();
  const writeOnly = new Set<string>();
  const declared = isSchema(flat.properties) ? flat.properties : {};
  for (const [name, raw] of Object.entries(declared)) {
    const property = normalise(raw, options);
    if (property.readOnly === true) readOnly.add(name);
    if (property.writeOnly === true) writeOnly.add(name);
    if (direction === 'request' && property.readOnly === true) continue;
    if (direction === 'response' && property.writeOnly === true) continue;
    properties.set(name, property);
  }
  const required = new Set<string>();
  if (Array.isArray(flat.required)) {
    for (const name of flat.required) if (typeof name === 'string' && (properties.has(name) || !Object.hasOwn(declared, name))) required.add(name);
  }
  const additional = flat.additionalProperties;
  const open =
    !isSchema(flat.properties) ||
    additional === true ||
    isSchema(additional) ||
    typeof flat.$ref === 'string' ||
    Array.isArray(flat.oneOf) ||
    Array.isArray(flat.anyOf);
  return { properties, required, readOnly, writeOnly, open };
}

/** The schema of an array's items, when `schema` admits arrays only (null aside); else undefined. */
export function arrayItems(schema: unknown, options: ReadOptions = {}): Schema | undefined {
  if (typeOf(schema, options) !== 'array') return undefined;
  const { items } = normalise(schema, options);
  return isSchema(items) ? normalise(items, options) : {};
}
