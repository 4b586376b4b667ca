/**
 * Config-file data checked by JSON Schema through compileBodyCheck, the compiled Ajv check the
 * control API validates its bodies with, and Ajv's verdict said in a file author's words:
 * `faults[1].status must be a whole number from 200 to 599, not 700`. What a value must be is read
 * from the schema at the failing path (or its `x-must-be`, where a phrase says it better).
 */
import { compileBodyCheck } from '../../core/prism/adapter.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import { INT64_MAX, INT64_MIN } from '../../core/json/int64.js';
import { describeWhole } from '../../core/options.js';
import { HIDDEN, keyPath, KeyProblem, mustBe, unknownKey } from './config-error.js';

/** A JSON Schema as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A phrase for "must be <phrase>" that replaces the one derived from the schema. */
export const MUST_BE = 'x-must-be';
/** Marks a credential's schema: a refusal at or below it never shows the value. */
export const SECRET = 'x-secret';

/**
 * Throws a KeyProblem naming the first thing wrong with `value` (found at key path `at`); once it
 * returns, `value` has the shape `T` the schema describes (as Ajv's ValidateFunction<T> promises).
 */
export type DataCheck<T> = (value: unknown, at: string) => asserts value is T;

export function compileDataCheck<T>(schema: JsonSchema): DataCheck<T> {
  // The one recipe (true int64 bounds, prism's Ajv), as the control API validates the same bodies.
  const check = compileBodyCheck(schema, undefined, 'request', '');
  return (value: unknown, at: string): asserts value is T => {
    // YAML and exact JSON give bigints for large integers; Ajv judges doubles on the same side of
    // the int64 bounds. The parsed data is JSON-shaped (YAML's core schema has no other types).
    const diagnostics = check?.(value as JsonValue);
    const first = diagnostics?.[0];
    if (first === undefined) return;
    throw problemAt(schema, value, first.path ?? [], String(first.code), first.message, at);
  };
}

function problemAt(schema: JsonSchema, value: unknown, path: readonly string[], keyword: string, message: string, at: string): KeyProblem {
  let node: JsonSchema | undefined = schema;
  let current = value;
  let where = at;
  let secret = false;
  for (const pointerSegment of path) {
    // Ajv's instancePath is a JSON pointer: a key with '/' ("/pets") arrives as "~1pets".
    const segment = pointerSegment.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(current) ? Number(segment) : undefined;
    node = index !== undefined ? schemaOf(node?.items) : schemaOf(propertiesOf(node)[segment] ?? node?.additionalProperties);
    current = index !== undefined ? (current as unknown[])[index] : (current as Record<string, unknown>)[segment];
    where = keyPath(where, index ?? segment);
    secret ||= node?.[SECRET] === true;
  }
  if (keyword === 'additionalProperties') {
    const key = /found '(.*)'$/.exec(message)?.[1] ?? '';
    return unknownKey(key, Object.keys(propertiesOf(node)), where);
  }
  if (keyword === 'required') {
    const key = /required property '(.*)'/.exec(message)?.[1] ?? '';
    return mustBe(keyPath(where, key), describe(schemaOf(propertiesOf(node)[key]), 'type', undefined), undefined);
  }
  return mustBe(where, describe(node, keyword, current), secret ? HIDDEN : current);
}

/** What a value of this schema must be; a type error on a number or string names only the type. */
function describe(schema: JsonSchema | undefined, keyword: string, value: unknown): string {
  if (schema === undefined) return 'valid';
  const phrase = schema[MUST_BE];
  if (typeof phrase === 'string') return phrase;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map(String);
    return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  }
  // A JS number holds no bigger whole number; int32 is a format, not a bound, in the document.
  if (schema.format === 'int32') return describeWhole(-(2 ** 31), 2 ** 31 - 1);
  if (schema.format === 'int64') return `an int64 (a whole number from ${INT64_MIN} to ${INT64_MAX}, or its digits as a string)`;
  switch (schema.type) {
    case 'integer':
      return describeWhole(numberOr(schema.minimum), numberOr(schema.maximum) ?? Number.MAX_SAFE_INTEGER);
    case 'number':
      return keyword === 'type' ? 'a number' : `a number from ${numberOr(schema.minimum)} to ${numberOr(schema.maximum)}`;
    case 'string': {
      // YAML reads an unquoted 12345 or true as a number or boolean; a token like that must be quoted.
      const quote = typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' ? ' (quote it)' : '';
      return keyword === 'type' ? `a string${quote}` : 'a non-empty string';
    }
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'a mapping';
    default:
      return 'valid';
  }
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function schemaOf(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

function propertiesOf(schema: JsonSchema | undefined): JsonSchema {
  return schemaOf(schema?.properties) ?? {};
}
