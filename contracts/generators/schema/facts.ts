/**
 * The facts about a schema that the suite needs to break it on purpose (request-cases.ts) and to
 * pick its edge values (boundary-cases.ts): a plain-data view of the folded Shape.
 */
import type { JsonValue } from '../json-value.js';
import { flatten } from './flatten.js';
import type { JsonSchema, JsonSchemaDefinition, SchemaType } from './json-schema.js';
import { fold, integerRangeOf, objectLayout, partForbids, type NumericBound } from './shape.js';

/** What a (sub)schema demands, as far as the suite needs to break it on purpose. */
export interface SchemaFacts {
  /** Types a valid value may have; undefined when the schema does not restrict the type. */
  readonly types: ReadonlySet<SchemaType> | undefined;
  /** The allowed values when enum/const restrict them. */
  readonly enumValues: readonly JsonValue[] | undefined;
  /** 'int32' / 'int64' when that format applies (an int64 value is generated as bigint). */
  readonly integerFormat: 'int32' | 'int64' | undefined;
  /** Exact integer range a valid integer keeps: the author's bounds narrowed by the int32/int64 range. */
  readonly integerRange: { readonly min: bigint | undefined; readonly max: bigint | undefined };
  /** The author's numeric bounds (prism's invented int64 bounds dropped). */
  readonly minimum: NumericBound | undefined;
  readonly maximum: NumericBound | undefined;
  readonly minLength: number;
  readonly maxLength: number | undefined;
  readonly patterns: readonly RegExp[];
  readonly required: readonly string[];
  /** Declared properties, each as the conjunction of every schema that constrains it. */
  readonly properties: ReadonlyMap<string, JsonSchema>;
  /** True when an object with this (undeclared) key is invalid: additionalProperties false applies to it. */
  forbidsKey(key: string): boolean;
  /** oneOf/anyOf present: these facts describe only what every branch shares. */
  readonly hasAlternatives: boolean;
}

/** `options.root` is the document `$ref: '#/...'` pointers resolve against. */
export function describeSchema(schema: JsonSchemaDefinition, options: { readonly root?: object } = {}): SchemaFacts {
  const list = flatten([schema], options.root);
  const shape = fold(list);
  const types = shape.types ?? undefined;
  const integerFormat = shape.formats.has('int64') ? 'int64' : shape.formats.has('int32') ? 'int32' : undefined;
  const { properties, required } = objectLayout(shape);
  const merged = new Map<string, JsonSchema>();
  for (const [key, conj] of properties) merged.set(key, { allOf: conj });
  return {
    types,
    enumValues: shape.enumValues,
    integerFormat,
    integerRange: integerRangeOf(shape),
    minimum: shape.min,
    maximum: shape.max,
    minLength: shape.minLength,
    maxLength: shape.maxLength,
    patterns: shape.patterns,
    required,
    properties: merged,
    forbidsKey: (key) => shape.objectParts.some((part) => partForbids(part, key)),
    hasAlternatives: list.some((s) => s.oneOf !== undefined || s.anyOf !== undefined),
  };
}
