/**
 * The one type reader. A schema admits a list of JSON types, or any value:
 * - `type` as written, a string or a list (3.1), with "null" for 3.0's `nullable: true`;
 * - no `type`: what its keywords imply (`properties`, `required`, `additionalProperties`,
 *   `patternProperties` → object; `items`, `prefixItems` → array), else the union of its
 *   oneOf/anyOf branches' types, else any value (`{}` is any, never a string);
 * - `allOf` and `$ref` through normalise(): the types every part admits.
 * Callers handle a list one way: a classifier that needs one type (inference, a filter, a form
 * field) reads typeOf, which is undefined for any value and for several; a maker of a value reads
 * firstTypeOf, the first type listed.
 */
import { isSchema, normalise, typeList, type ReadOptions, type Schema } from './normalise.js';

export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';

const OBJECT_WORDS = ['properties', 'required', 'additionalProperties', 'patternProperties'];
const ARRAY_WORDS = ['items', 'prefixItems'];

/** The JSON types `schema` admits ("null" among them when it is nullable); undefined for any value. */
export function typesOf(schema: unknown, options: ReadOptions = {}): readonly JsonType[] | undefined {
  return typesAt(normalise(schema, options), options, 0);
}

function typesAt(schema: Schema, options: ReadOptions, depth: number): JsonType[] | undefined {
  const declared = typeList(schema.type) as JsonType[] | undefined;
  const types = declared ?? implied(schema, options, depth);
  if (types === undefined) return undefined;
  return schema.nullable === true && !types.includes('null') ? [...types, 'null'] : types;
}

function implied(schema: Schema, options: ReadOptions, depth: number): JsonType[] | undefined {
  if (OBJECT_WORDS.some((word) => schema[word] !== undefined)) return ['object'];
  if (ARRAY_WORDS.some((word) => schema[word] !== undefined)) return ['array'];
  for (const word of ['oneOf', 'anyOf'] as const) {
    const branches = schema[word];
    if (!Array.isArray(branches) || branches.length === 0 || depth > 8) continue;
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const types = typesAt(normalise(branch, options), options, depth + 1);
      if (types === undefined) return undefined;
      types.forEach((type) => union.add(type));
    }
    return [...union];
  }
  return undefined;
}

/**
 * The one non-null type `schema` admits ("null" when it admits only null); undefined when it admits
 * any value or several types. integer and number together read as number.
 */
export function typeOf(schema: unknown, options: ReadOptions = {}): JsonType | undefined {
  const types = typesOf(schema, options);
  if (types === undefined) return undefined;
  const named = types.filter((type) => type !== 'null');
  if (named.length === 0) return types.length > 0 ? 'null' : undefined;
  if (named.length === 2 && named.includes('integer') && named.includes('number')) return 'number';
  return named.length === 1 ? named[0] : undefined;
}

/** The first non-null type listed ("null" when only null): what a made value takes; undefined for any value. */
export function firstTypeOf(schema: unknown, options: ReadOptions = {}): JsonType | undefined {
  const types = typesOf(schema, options);
  if (types === undefined) return undefined;
  return types.find((type) => type !== 'null') ?? types[0];
}

/** The format a schema states, through allOf. */
export function formatOf(schema: unknown, options: ReadOptions = {}): string | undefined {
  if (!isSchema(schema)) return undefined;
  const { format } = normalise(schema, options);
  return typeof format === 'string' ? format : undefined;
}

/** The JSON type of a value (a bigint and a whole number are integers). */
export function valueType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}
