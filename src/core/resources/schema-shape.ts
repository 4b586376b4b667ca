/**
 * What inference reads from a (dereferenced) JSON Schema beyond the one reader in core/schema
 * (types, properties, identifier types): whether a parameter can carry a property's value, and a
 * structural signature to compare two schemas that prism inlined separately. Pure functions.
 */
import { arrayItems, objectShape } from '../schema/properties.js';
import { formatOf, typeOf } from '../schema/types.js';

export type { Schema } from '../schema/normalise.js';
export type { ObjectShape } from '../schema/properties.js';

const MAX_DEPTH = 32;

/** String formats the request validator checks (ajv-formats), so a path segment must have that form. */
const CHECKED_FORMATS: ReadonlySet<string> = new Set([
  'uuid',
  'ipv4',
  'ipv6',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'date',
  'date-time',
  'time',
  'duration',
  'byte',
]);

/** Whether the request validator checks values of this string format: a path segment must then have that form. */
export function isCheckedFormat(format: string | undefined): format is string {
  return format !== undefined && CHECKED_FORMATS.has(format);
}

/** True when a value of a property typed `property` can be carried by a parameter typed `parameter`. */
export function fitsParameter(parameter: unknown, property: unknown): boolean {
  // A property that holds one value (Box's `type` of enum ['shield_information_barrier_segment_restriction']) tells no two items apart.
  if (holdsOneValue(property)) return false;
  const parameterType = typeOf(parameter);
  const propertyType = typeOf(property);
  if (parameterType === 'integer') return propertyType === 'integer';
  if (parameterType === 'string') {
    // A parameter of a checked format (uuid, ipv6, …) names values of that format: another property's values
    // would make keys its own path refuses (DigitalOcean's {reserved_ipv6} had been keyed by region_slug).
    // A plain string parameter can carry any string, or an integer's digits.
    const format = formatOf(parameter);
    if (isCheckedFormat(format)) return propertyType === 'string' && formatOf(property) === format;
    return propertyType === 'string' || propertyType === 'integer';
  }
  // A parameter without a type: anything scalar.
  return parameterType === undefined && (propertyType === 'string' || propertyType === 'integer');
}

function holdsOneValue(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { enum: values, const: constant } = schema as { readonly enum?: unknown; readonly const?: unknown };
  return constant !== undefined || (Array.isArray(values) && values.length === 1);
}

/**
 * A schema's structure as text: its properties (name, type, format, recursively), required names
 * and items. Two schemas prism inlined from one component have the same signature; descriptions,
 * examples and key order do not count.
 */
export function structureSignature(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return '';
  const type = typeOf(schema) ?? '';
  const format = formatOf(schema) ?? '';
  if (type === 'array') return `[${structureSignature(arrayItems(schema), depth + 1)}]`;
  const { properties, required } = objectShape(schema);
  const names = [...properties.keys()].sort();
  if (names.length === 0) return `${type}:${format}`;
  const fields = names.map((name) => `${JSON.stringify(name)}${required.has(name) ? '!' : ''}:${structureSignature(properties.get(name), depth + 1)}`);
  return `{${fields.join(',')}}`;
}
