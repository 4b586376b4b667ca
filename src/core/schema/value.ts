/**
 * The one "small valid value" for a schema: what the inspector's create form starts from and what
 * the stand-in stores for a required property the request left out. One precedence: what the
 * schema states (const, then the first enum value, then default, then example / examples[0]), else
 * a value of its first type (types.ts) within its keywords: a string of its format or within its
 * lengths, a number 1 moved inside the bounds and onto multipleOf, false, null, the required
 * properties of an object (by direction), minItems items of an array, the first oneOf/anyOf branch
 * (also of an object that declares no properties of its own).
 * Best effort: a `pattern` or a `not` is not honoured; the callers' validators check what is sent.
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../json/exact-json.js';
import { isSchema, normalise, type Schema } from './normalise.js';
import { objectShape, type ShapeOptions } from './properties.js';
import { firstTypeOf } from './types.js';

/** Makes a value; most are constants, a few (date-time, date, uuid when fresh) are made at each call. */
export type ValueMaker = () => JsonValue;

export interface ValueOptions extends ShapeOptions {
  /** Fresh: a date-time or date is the moment of the call and a uuid random (a stored value); else fixed texts (an example). */
  readonly fresh?: boolean;
}

/** Deep enough for any real body; a recursive schema stops here with {}. */
const MAX_DEPTH = 8;

/** A small value `schema` accepts, as far as its keywords say. */
export function minimalValue(schema: unknown, options: ValueOptions = {}): JsonValue {
  return valueMaker(schema, options)();
}

/** A maker of minimalValue, compiled once (the stand-in fills at every create). */
export function valueMaker(schema: unknown, options: ValueOptions = {}, depth = 0): ValueMaker {
  if (depth > MAX_DEPTH) return () => ({});
  const flat = normalise(schema, options);
  const stated = statedValue(flat);
  if (stated !== undefined) return constant(stated);
  const type = firstTypeOf(flat, options);
  // An object declared only by its alternatives (DigitalOcean's autoscale `config`: type object, oneOf a
  // static or a dynamic config) is made as its first one: {} would fit neither.
  if (type === undefined || (type === 'object' && flat.properties === undefined)) {
    for (const key of ['oneOf', 'anyOf'] as const) {
      const choices = flat[key];
      if (Array.isArray(choices) && choices.length > 0) return valueMaker(choices[0], options, depth + 1);
    }
  }
  switch (type) {
    case 'object':
      return objectMaker(flat, options, depth);
    case 'array': {
      const count = typeof flat.minItems === 'number' ? Math.min(Math.max(flat.minItems, 0), 10) : 0;
      const item = count > 0 ? valueMaker(flat.items, options, depth + 1) : () => null;
      return () => Array.from({ length: count }, item);
    }
    case 'string':
      return stringMaker(flat, options.fresh === true);
    case 'integer':
    case 'number':
      return constant(numberWithin(flat, type));
    case 'boolean':
      return constant(false);
    default:
      // null, and a schema that admits any value.
      return constant(null);
  }
}

/** The const, first enum value, default or example the schema states; undefined when it states none. */
function statedValue(schema: Schema): JsonValue | undefined {
  if (schema.const !== undefined) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (schema.default !== undefined) return schema.default as JsonValue;
  if (schema.example !== undefined) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  return undefined;
}

function constant(value: JsonValue): ValueMaker {
  return () => value;
}

/** The required properties the direction carries (a request no readOnly one, an answer no writeOnly one). */
function objectMaker(schema: Schema, options: ValueOptions, depth: number): ValueMaker {
  const shape = objectShape(schema, options);
  const makers = [...shape.required].flatMap((name) => {
    const property = shape.properties.get(name);
    // Required but dropped by direction (readOnly in a request): not ours to make.
    if (property === undefined && (shape.readOnly.has(name) || shape.writeOnly.has(name))) return [];
    return [[name, valueMaker(property ?? {}, options, depth + 1)] as const];
  });
  return () => {
    const value: Record<string, JsonValue> = {};
    for (const [name, make] of makers) value[name] = make();
    return value;
  };
}

const BY_FORMAT: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

const FRESH: Readonly<Record<string, ValueMaker>> = {
  'date-time': () => new Date().toISOString(),
  date: () => new Date().toISOString().slice(0, 10),
  uuid: () => randomUUID(),
};

function stringMaker(schema: Schema, fresh: boolean): ValueMaker {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format !== undefined && fresh && FRESH[format] !== undefined) return FRESH[format];
  const byFormat = format === undefined ? undefined : BY_FORMAT[format];
  if (byFormat !== undefined) return constant(byFormat);
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 1000) : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return constant('text'.padEnd(min, 'x').slice(0, max));
}

/** 1 (an id or a count more often starts there than at 0), moved inside the bounds, on a multiple of multipleOf. */
function numberWithin(schema: Schema, type: 'integer' | 'number'): number {
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : type === 'integer' ? 1 : 0;
  const atOrAbove = (x: number) => (step > 0 ? Math.ceil(x / step) * step : x);
  const above = (x: number) => (step > 0 ? (Math.floor(x / step) + 1) * step : Math.floor(x) + 1);
  const atOrBelow = (x: number) => (step > 0 ? Math.floor(x / step) * step : x);
  const below = (x: number) => (step > 0 ? (Math.ceil(x / step) - 1) * step : Math.ceil(x) - 1);
  let value = atOrAbove(1);
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = atOrAbove(schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = above(schema.exclusiveMinimum);
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = atOrBelow(schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = below(schema.exclusiveMaximum);
  return value;
}
