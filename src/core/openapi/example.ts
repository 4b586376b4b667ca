/**
 * A request body to start from, for people (the inspector's create form): the document's own
 * example for the operation's JSON body (the media type's `examples`/`example`, else the schema's
 * `example`/`examples`), else a minimal body the schema accepts, built from its required
 * properties. Best effort: a `pattern` or a `not` is not honoured, and the control API checks what
 * is finally sent.
 */
import type { JsonValue } from '../json/exact-json.js';
import { jsonRequestBody, type Operation } from './operation.js';

export interface BodyExample {
  readonly value: JsonValue;
  /** document: written in the document; generated: built from the schema. */
  readonly source: 'document' | 'generated';
}

/** The example of `operation`'s JSON request body; undefined when it takes none. */
export function requestBodyExample(operation: Pick<Operation, 'request'>): BodyExample | undefined {
  const body = jsonRequestBody(operation);
  if (body === undefined) return undefined;
  const content = operation.request?.body?.contents?.find((candidate) => candidate.mediaType === body.mediaType);
  const given = content?.examples?.find((example) => 'value' in example && example.value !== undefined);
  if (given && 'value' in given) return { value: given.value as JsonValue, source: 'document' };
  const schema = body.schema as Schema;
  const own = schemaExample(schema);
  if (own !== undefined) return { value: own, source: 'document' };
  return { value: minimalValue(schema, 0), source: 'generated' };
}

type Schema = Readonly<Record<string, unknown>>;

function schemaExample(schema: Schema): JsonValue | undefined {
  if (schema.example !== undefined) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  return undefined;
}

/** Deep enough for any real request body; a recursive schema stops here. */
const MAX_DEPTH = 8;

/** A small value `schema` accepts, preferring what the schema itself suggests (const, enum, default, example). */
export function minimalValue(schema: unknown, depth: number): JsonValue {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return {};
  const s = schema as Schema;
  if (s.const !== undefined) return s.const as JsonValue;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as JsonValue;
  if (s.default !== undefined) return s.default as JsonValue;
  const suggested = schemaExample(s);
  if (suggested !== undefined) return suggested;
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return mergedParts(s.allOf, depth);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const choices = s[key];
    if (Array.isArray(choices) && choices.length > 0) return minimalValue(choices[0], depth + 1);
  }
  switch (typeOf(s)) {
    case 'object':
      return minimalObject(s, depth);
    case 'array': {
      const count = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: Math.min(count, 10) }, () => minimalValue(s.items, depth + 1));
    }
    case 'string':
      return minimalString(s);
    case 'integer':
    case 'number':
      return minimalNumber(s);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? (schema.type as unknown[]).find((name) => name !== 'null') : schema.type;
  if (typeof type === 'string') return type;
  return schema.properties !== undefined || schema.required !== undefined ? 'object' : undefined;
}

/** The required properties (a client does not send readOnly ones), each with its own minimal value. */
function minimalObject(schema: Schema, depth: number): JsonValue {
  const properties = (schema.properties ?? {}) as Readonly<Record<string, Schema>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const value: Record<string, JsonValue> = {};
  for (const name of required) {
    if (properties[name]?.readOnly === true) continue;
    value[name] = minimalValue(properties[name] ?? {}, depth + 1);
  }
  return value;
}

function mergedParts(parts: readonly unknown[], depth: number): JsonValue {
  const values = parts.map((part) => minimalValue(part, depth + 1));
  const objects = values.filter((value): value is Record<string, JsonValue> => typeof value === 'object' && value !== null && !Array.isArray(value));
  return objects.length === values.length ? Object.assign({}, ...objects) : (values[0] ?? {});
}

const BY_FORMAT: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  uri: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

function minimalString(schema: Schema): string {
  const byFormat = typeof schema.format === 'string' ? BY_FORMAT[schema.format] : undefined;
  if (byFormat !== undefined) return byFormat;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return 'text'.padEnd(min, 'x').slice(0, max);
}

/** 1 when the bounds allow it (an id or a count more often starts there than at 0), else the nearest bound. */
function minimalNumber(schema: Schema): number {
  const low =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : undefined;
  const high =
    typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? Math.ceil(schema.exclusiveMaximum) - 1 : undefined;
  if (low !== undefined && low > 1) return low;
  if (high !== undefined && high < 1) return high;
  return 1;
}
