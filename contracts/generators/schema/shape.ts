/**
 * Folding: a flattened list of schemas (see flatten.ts) becomes one Shape, with types intersected,
 * bounds tightened and enums narrowed. Every generator and every fact the checks need reads a Shape.
 */
import { jsonEquals, jsonObject, type JsonValue } from '../json-value.js';
import { bigCeil, bigFloor } from '../_internals/bigint-math.js';
import { STRING_FORMATS } from '../arbitraries/string-formats.js';
import { isPrismBound } from '../../../src/core/prism/int64-bounds.js';
import { INT32, INT64 } from './integer-formats.js';
import { isCount, isRecord, SchemaError, type JsonSchema, type JsonSchemaDefinition, type SchemaType } from './json-schema.js';

export interface NumericBound {
  readonly value: number;
  readonly exclusive: boolean;
}

/** What one schema says about an object's keys. */
export interface ObjectPart {
  readonly properties: { readonly [key: string]: JsonSchemaDefinition };
  readonly patternProperties: ReadonlyArray<readonly [RegExp, JsonSchemaDefinition]>;
  readonly additional: JsonSchemaDefinition | undefined;
  readonly restrictsNames: boolean;
}

/** Everything a list of schemas that must all hold says, keyword by keyword. */
export interface Shape {
  types: Set<SchemaType> | undefined;
  hinted: Set<SchemaType>;
  enumValues: JsonValue[] | undefined;
  minLength: number;
  maxLength: number | undefined;
  patterns: RegExp[];
  formats: Set<string>;
  min: NumericBound | undefined;
  max: NumericBound | undefined;
  multipleOf: number[];
  objectParts: ObjectPart[];
  required: string[];
  minProperties: number;
  maxProperties: number | undefined;
  itemSchemas: JsonSchemaDefinition[];
  tuples: Array<readonly JsonSchemaDefinition[]>;
  minItems: number;
  maxItems: number | undefined;
  uniqueItems: boolean;
}

export function fold(list: readonly JsonSchema[]): Shape {
  const shape: Shape = {
    types: undefined,
    hinted: new Set(),
    enumValues: undefined,
    minLength: 0,
    maxLength: undefined,
    patterns: [],
    formats: new Set(),
    min: undefined,
    max: undefined,
    multipleOf: [],
    objectParts: [],
    required: [],
    minProperties: 0,
    maxProperties: undefined,
    itemSchemas: [],
    tuples: [],
    minItems: 0,
    maxItems: undefined,
    uniqueItems: false,
  };
  for (const s of list) {
    if (s.type !== undefined) {
      const own = new Set<SchemaType>(typeof s.type === 'string' ? [s.type] : s.type);
      if (s.nullable === true) own.add('null');
      shape.types = shape.types === undefined ? own : intersectTypes(shape.types, own);
    }
    if (Array.isArray(s.enum)) restrictEnum(shape, s.enum);
    if (Object.prototype.hasOwnProperty.call(s, 'const')) restrictEnum(shape, [s.const]);

    if (isCount(s.minLength)) shape.minLength = Math.max(shape.minLength, s.minLength);
    if (isCount(s.maxLength)) shape.maxLength = Math.min(shape.maxLength ?? Infinity, s.maxLength);
    if (typeof s.pattern === 'string') shape.patterns.push(compilePattern(s.pattern));
    if (typeof s.format === 'string') shape.formats.add(s.format);
    if (isCount(s.minLength) || isCount(s.maxLength) || typeof s.pattern === 'string') shape.hinted.add('string');
    if (typeof s.format === 'string' && s.format in STRING_FORMATS) shape.hinted.add('string');
    if (s.format === 'int32' || s.format === 'int64') shape.hinted.add('integer');

    foldBounds(shape, s);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) shape.multipleOf.push(s.multipleOf);

    if (s.properties !== undefined || s.additionalProperties !== undefined || s.patternProperties !== undefined || s.propertyNames !== undefined) {
      shape.objectParts.push({
        properties: s.properties ?? {},
        patternProperties: Object.entries(s.patternProperties ?? {}).map(([p, sub]) => [compilePattern(p), sub] as const),
        additional: s.additionalProperties,
        restrictsNames: s.propertyNames !== undefined && s.propertyNames !== true,
      });
    }
    if (Array.isArray(s.required)) for (const key of s.required) if (!shape.required.includes(key)) shape.required.push(key);
    if (isCount(s.minProperties)) shape.minProperties = Math.max(shape.minProperties, s.minProperties);
    if (isCount(s.maxProperties)) shape.maxProperties = Math.min(shape.maxProperties ?? Infinity, s.maxProperties);
    if (s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined || s.patternProperties !== undefined) {
      shape.hinted.add('object');
    }

    if (Array.isArray(s.items)) shape.tuples.push(s.items as readonly JsonSchemaDefinition[]);
    else if (s.items !== undefined) shape.itemSchemas.push(s.items as JsonSchemaDefinition);
    if (Array.isArray(s.prefixItems)) shape.tuples.push(s.prefixItems);
    if (isCount(s.minItems)) shape.minItems = Math.max(shape.minItems, s.minItems);
    if (isCount(s.maxItems)) shape.maxItems = Math.min(shape.maxItems ?? Infinity, s.maxItems);
    if (s.uniqueItems === true) shape.uniqueItems = true;
    if (s.items !== undefined || s.prefixItems !== undefined || isCount(s.minItems) || isCount(s.maxItems)) shape.hinted.add('array');
  }
  // An integer format is a statement about integers, whatever else the schema says.
  if (shape.formats.has('int64') || shape.formats.has('int32')) {
    if (shape.types?.has('number')) {
      shape.types.delete('number');
      shape.types.add('integer');
    }
  }
  return shape;
}

function foldBounds(shape: Shape, s: JsonSchema): void {
  const hint = (): void => void shape.hinted.add('number');
  if (typeof s.minimum === 'number' && Number.isFinite(s.minimum) && !isPrismBound(s, 'minimum')) {
    shape.min = tighterMin(shape.min, { value: s.minimum, exclusive: s.exclusiveMinimum === true });
    hint();
  }
  if (typeof s.exclusiveMinimum === 'number' && Number.isFinite(s.exclusiveMinimum)) {
    shape.min = tighterMin(shape.min, { value: s.exclusiveMinimum, exclusive: true });
    hint();
  }
  if (typeof s.maximum === 'number' && Number.isFinite(s.maximum) && !isPrismBound(s, 'maximum')) {
    shape.max = tighterMax(shape.max, { value: s.maximum, exclusive: s.exclusiveMaximum === true });
    hint();
  }
  if (typeof s.exclusiveMaximum === 'number' && Number.isFinite(s.exclusiveMaximum)) {
    shape.max = tighterMax(shape.max, { value: s.exclusiveMaximum, exclusive: true });
    hint();
  }
  if (typeof s.multipleOf === 'number') hint();
}

function tighterMin(a: NumericBound | undefined, b: NumericBound): NumericBound {
  if (a === undefined || b.value > a.value || (b.value === a.value && b.exclusive)) return b;
  return a;
}

function tighterMax(a: NumericBound | undefined, b: NumericBound): NumericBound {
  if (a === undefined || b.value < a.value || (b.value === a.value && b.exclusive)) return b;
  return a;
}

function intersectTypes(a: ReadonlySet<SchemaType>, b: ReadonlySet<SchemaType>): Set<SchemaType> {
  const out = new Set<SchemaType>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if (t === 'integer' && b.has('number')) out.add('integer');
    else if (t === 'number' && b.has('integer')) out.add('integer');
  }
  return out;
}

function restrictEnum(shape: Shape, values: readonly unknown[]): void {
  const own: JsonValue[] = [];
  for (const value of values) {
    const json = toJsonValue(value);
    if (json !== undefined) own.push(json);
  }
  shape.enumValues = shape.enumValues === undefined ? own : shape.enumValues.filter((v) => own.some((w) => jsonEquals(v, w)));
}

function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const items = value.map(toJsonValue);
    return items.every((item) => item !== undefined) ? (items as JsonValue[]) : undefined;
  }
  if (isRecord(value)) {
    const entries: Array<[string, JsonValue]> = [];
    for (const key of Object.keys(value)) {
      const item = toJsonValue(value[key]);
      if (item === undefined) return undefined;
      entries.push([key, item]);
    }
    return jsonObject(entries);
  }
  return undefined;
}

function compilePattern(pattern: string): RegExp {
  // JSON Schema patterns are ECMA-262 with unicode semantics (ajv compiles them with the u flag).
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw new SchemaError(`pattern ${JSON.stringify(pattern)} is not a regular expression: ${(error as Error).message}`);
    }
  }
}

/** int32 or int64 applies: the value is an integer whatever `type` says. */
export function isIntegerFormat(shape: Shape): boolean {
  return shape.formats.has('int64') || shape.formats.has('int32');
}

/** The exact integer range the schema allows: author bounds narrowed by the int32/int64 format. */
export function integerRangeOf(shape: Shape): { min: bigint | undefined; max: bigint | undefined } {
  let min: bigint | undefined;
  let max: bigint | undefined;
  if (shape.min !== undefined) min = shape.min.exclusive ? bigFloor(shape.min.value) + 1n : bigCeil(shape.min.value);
  if (shape.max !== undefined) max = shape.max.exclusive ? bigCeil(shape.max.value) - 1n : bigFloor(shape.max.value);
  const range = shape.formats.has('int64') ? INT64 : shape.formats.has('int32') ? { min: BigInt(INT32.min), max: BigInt(INT32.max) } : undefined;
  if (range !== undefined) {
    min = min === undefined || min < range.min ? range.min : min;
    max = max === undefined || max > range.max ? range.max : max;
  }
  return { min, max };
}

/** True when this part's additionalProperties: false applies to `key`. */
export function partForbids(part: ObjectPart, key: string): boolean {
  if (Object.prototype.hasOwnProperty.call(part.properties, key)) return false;
  if (part.patternProperties.some(([re]) => re.test(key))) return false;
  return part.additional === false;
}

/** Each property with every schema that constrains it (declared, pattern-matched or additional). */
export function objectLayout(shape: Shape): { properties: Map<string, JsonSchemaDefinition[]>; required: string[]; forbidden: string[] } {
  const keys: string[] = [];
  for (const part of shape.objectParts) for (const key of Object.keys(part.properties)) if (!keys.includes(key)) keys.push(key);
  for (const key of shape.required) if (!keys.includes(key)) keys.push(key);
  const properties = new Map<string, JsonSchemaDefinition[]>();
  const forbidden: string[] = [];
  for (const key of keys) {
    const conj: JsonSchemaDefinition[] = [];
    let forbiddenHere = false;
    for (const part of shape.objectParts) {
      if (Object.prototype.hasOwnProperty.call(part.properties, key)) conj.push(part.properties[key] as JsonSchemaDefinition);
      const matched = part.patternProperties.filter(([re]) => re.test(key));
      for (const [, sub] of matched) conj.push(sub);
      if (!Object.prototype.hasOwnProperty.call(part.properties, key) && matched.length === 0 && part.additional !== undefined) {
        if (part.additional === false) forbiddenHere = true;
        else conj.push(part.additional);
      }
    }
    if (forbiddenHere) forbidden.push(key);
    else properties.set(key, conj);
  }
  return { properties, required: shape.required.filter((key) => properties.has(key)), forbidden };
}
