/**
 * Values for the properties an answer requires and the request did not carry (a `createdAt`, a
 * `status`): made once at create and stored, so every later answer shows the same. The value is
 * the schema's default, else its const, else its first enum value, else its example, else one
 * made from its type (a date-time is the moment of creation). Compiled at bind time.
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemFields } from '../../store/item-store.js';
import { objectShape, typeOf, type Schema } from './schema.js';

/** Makes a value; most are constants, a few (date-time, uuid) are made at each call. */
export type ValueMaker = () => JsonValue;

type Record_ = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A maker of a value valid against `schema` as far as its keywords say (type, format, bounds, length). */
export function valueMaker(schema: Schema | undefined, depth = 0): ValueMaker {
  if (!isRecord(schema)) return () => null;
  const stated = statedValue(schema);
  if (stated !== undefined) return constant(stated);
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return stringMaker(schema);
    case 'integer':
    case 'number':
      return constant(numberWithin(schema, type));
    case 'boolean':
      return constant(false);
    case 'array':
      return () => [];
    case 'null':
      return constant(null);
    default: {
      if (type !== 'object' && objectShape(schema).properties.size === 0) return constant(type === 'object' ? {} : null);
      if (depth > 8) return () => ({});
      const fill = compileFill(schema, depth + 1);
      return () => fill({});
    }
  }
}

/** The default, const, first enum value or example the schema states; undefined when it states none. */
function statedValue(schema: Record_): JsonValue | undefined {
  if (schema.default !== undefined) return schema.default as JsonValue;
  if (schema.const !== undefined) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (schema.example !== undefined) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const value = isRecord(branch) ? statedValue(branch) : undefined;
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function constant(value: JsonValue): ValueMaker {
  return () => value;
}

function stringMaker(schema: Record_): ValueMaker {
  switch (schema.format) {
    case 'date-time':
      return () => new Date().toISOString();
    case 'date':
      return () => new Date().toISOString().slice(0, 10);
    case 'time':
      return constant('00:00:00Z');
    case 'uuid':
      return () => randomUUID();
    case 'email':
      return constant('user@example.com');
    case 'uri':
    case 'url':
      return constant('https://example.com/');
    case 'ipv4':
      return constant('192.0.2.1');
    case 'ipv6':
      return constant('2001:db8::1');
    default: {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      const text = 'string'.padEnd(Math.min(Math.max(min, 6), 1000), 's').slice(0, Math.max(min, Math.min(6, max)));
      return constant(text);
    }
  }
}

/** 0, moved inside the schema's bounds (and onto its multipleOf for integers). */
function numberWithin(schema: Record_, type: 'integer' | 'number'): number {
  let value = 0;
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : type === 'integer' ? 1 : 0;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + (step || 1);
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - (step || 1);
  if (step > 0) value = Math.ceil(value / step) * step;
  return value;
}

/** Fills what `fields` lacks of the required properties of `schema`; gives the fields back as they were when nothing is missing. */
export type Fill = (fields: ItemFields) => ItemFields;

const IDENTITY: Fill = (fields) => fields;

/** Compiles the fill of an object schema's required properties. */
export function compileFill(schema: Schema | undefined, depth = 0): Fill {
  const shape = objectShape(schema);
  const makers = [...shape.required].map((name) => [name, valueMaker(shape.properties.get(name), depth)] as const);
  if (makers.length === 0) return IDENTITY;
  return (fields) => {
    let filled: Record<string, JsonValue> | undefined;
    for (const [name, make] of makers) {
      if (Object.hasOwn(fields, name)) continue;
      filled ??= { ...fields };
      filled[name] = make();
    }
    return filled ?? fields;
  };
}

/** Applies fills in turn (the create answer's schema, then the item's). */
export function fillAll(fills: readonly Fill[]): Fill {
  const active = fills.filter((fill) => fill !== IDENTITY);
  if (active.length === 0) return IDENTITY;
  if (active.length === 1) return active[0] as Fill;
  return (fields) => active.reduce((current, fill) => fill(current), fields);
}
