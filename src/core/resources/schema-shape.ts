/**
 * What inference reads from a (dereferenced) JSON Schema: an object's properties with allOf merged,
 * a scalar's kind, an identifier's type, and a structural signature to compare two schemas that
 * prism inlined separately. Pure functions over plain data.
 */
import { isPrismBound } from '../prism/int64-bounds.js';
import type { IdentifierType } from './model.js';

export type Schema = Readonly<Record<string, unknown>>;

/** An object schema's properties and required names, with allOf branches merged in. */
export interface ObjectShape {
  readonly properties: Readonly<Record<string, Schema>>;
  readonly required: ReadonlySet<string>;
}

const MAX_DEPTH = 32;

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The properties an object schema declares (its own and its allOf branches'); empty for anything else. */
export function objectShape(schema: unknown): ObjectShape {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  collect(schema, properties, required, 0);
  return { properties, required };
}

function collect(schema: unknown, properties: Record<string, Schema>, required: Set<string>, depth: number): void {
  if (!isSchema(schema) || depth > MAX_DEPTH) return;
  if (isSchema(schema.properties)) {
    for (const [name, inner] of Object.entries(schema.properties)) {
      // A later branch restating a property narrows it: keep both facts (readOnly, format) by merging.
      if (isSchema(inner)) properties[name] = { ...properties[name], ...inner };
    }
  }
  if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') required.add(name);
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) collect(branch, properties, required, depth + 1);
}

/** The schema's type, reading 3.1's type arrays (["integer", "null"]) as their one non-null type. */
export function typeOf(schema: unknown): string | undefined {
  if (!isSchema(schema)) return undefined;
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    return named.length === 1 ? named[0] : undefined;
  }
  if (Array.isArray(schema.allOf)) {
    const types = new Set(schema.allOf.map(typeOf).filter((t) => t !== undefined));
    return types.size === 1 ? [...types][0] : undefined;
  }
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

export function formatOf(schema: unknown): string | undefined {
  return isSchema(schema) && typeof schema.format === 'string' ? schema.format : undefined;
}

/** The items schema of an array schema, or undefined when the schema is not an array. */
export function arrayItems(schema: unknown): Schema | undefined {
  if (typeOf(schema) !== 'array' || !isSchema(schema)) return undefined;
  return isSchema(schema.items) ? schema.items : {};
}

/** True when a value of a property typed `property` can be carried by a parameter typed `parameter`. */
export function fitsParameter(parameter: unknown, property: unknown): boolean {
  const parameterType = typeOf(parameter);
  const propertyType = typeOf(property);
  if (parameterType === 'integer') return propertyType === 'integer';
  if (parameterType === 'string') {
    // A uuid parameter names uuids; a plain string parameter can carry any string, or an integer's digits.
    if (formatOf(parameter) === 'uuid') return propertyType === 'string' && formatOf(property) === 'uuid';
    return propertyType === 'string' || propertyType === 'integer';
  }
  // A parameter without a type: anything scalar.
  return parameterType === undefined && (propertyType === 'string' || propertyType === 'integer');
}

const BOUNDS = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

/** An identifier's type from its property's schema: an integer within its format (narrowed by minimum/maximum), a uuid, or a string. */
export function identifierType(schema: unknown): IdentifierType {
  if (typeOf(schema) === 'integer' && isSchema(schema)) {
    let [minimum, maximum]: readonly bigint[] = formatOf(schema) === 'int32' ? BOUNDS.int32 : BOUNDS.int64;
    // prism gives every int64 schema the bounds ±(2^53 − 1): only the author's narrow an identifier.
    const lower = bound(isPrismBound(schema, 'minimum') ? undefined : schema.minimum, schema.exclusiveMinimum, 'lower');
    const upper = bound(isPrismBound(schema, 'maximum') ? undefined : schema.maximum, schema.exclusiveMaximum, 'upper');
    if (lower !== undefined && lower > (minimum as bigint)) minimum = lower;
    if (upper !== undefined && upper < (maximum as bigint)) maximum = upper;
    return { kind: 'integer', minimum: minimum as bigint, maximum: maximum as bigint };
  }
  return formatOf(schema) === 'uuid' ? { kind: 'uuid' } : { kind: 'string' };
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

/**
 * A schema's structure as text: its properties (name, type, format, recursively), required names
 * and items. Two schemas prism inlined from one component have the same signature; descriptions,
 * examples and key order do not count.
 */
export function structureSignature(schema: unknown, depth = 0): string {
  if (!isSchema(schema) || depth > MAX_DEPTH) return '';
  const type = typeOf(schema) ?? '';
  const format = formatOf(schema) ?? '';
  if (type === 'array') return `[${structureSignature(arrayItems(schema), depth + 1)}]`;
  const { properties, required } = objectShape(schema);
  const names = Object.keys(properties).sort();
  if (names.length === 0) return `${type}:${format}`;
  const fields = names.map((name) => `${JSON.stringify(name)}${required.has(name) ? '!' : ''}:${structureSignature(properties[name], depth + 1)}`);
  return `{${fields.join(',')}}`;
}
