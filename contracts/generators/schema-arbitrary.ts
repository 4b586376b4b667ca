/**
 * JSON Schema → fast-check. Values are generated from the schema as written, so a tighter document
 * tightens generation; within it, generation leans on the values that break implementations
 * (empty and huge strings, NUL, emoji, right-to-left text, int64 extremes, 2^53 ± 1).
 *
 * The schema is read as prism-http hands it over (dereferenced, draft-07 flavoured, with
 * `x-stoplight.explicitProperties`), but plain JSON Schema from draft 4 to 2020-12 works too.
 */
import fc from 'fast-check';
import { jsonEquals, jsonObject, toJsonText, type JsonValue } from './json-value.js';

export type SchemaType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';
export const SCHEMA_TYPES: readonly SchemaType[] = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

export type JsonSchemaDefinition = JsonSchema | boolean;

/**
 * The part of JSON Schema this module reads. Structural, so prism-http's JSONSchema7 (what
 * `operation.request.body.contents[i].schema` is typed as) is accepted as it is.
 */
export interface JsonSchema {
  readonly $ref?: string;
  readonly $schema?: string;
  readonly type?: SchemaType | readonly SchemaType[];
  /** OpenAPI 3.0; prism already turns it into `type: [..., 'null']`. */
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly allOf?: readonly JsonSchemaDefinition[];
  readonly anyOf?: readonly JsonSchemaDefinition[];
  readonly oneOf?: readonly JsonSchemaDefinition[];
  readonly properties?: { readonly [key: string]: JsonSchemaDefinition };
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchemaDefinition;
  readonly patternProperties?: { readonly [pattern: string]: JsonSchemaDefinition };
  readonly propertyNames?: JsonSchemaDefinition;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly items?: JsonSchemaDefinition | readonly JsonSchemaDefinition[];
  readonly prefixItems?: readonly JsonSchemaDefinition[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** draft 4: boolean modifier of minimum; draft 6+: the exclusive bound itself. */
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly multipleOf?: number;
  /** prism-http's record of the keywords the author wrote; the rest (e.g. int64 bounds) are prism's. */
  readonly 'x-stoplight'?: { readonly explicitProperties?: readonly string[] };
}

export interface SchemaArbitraryOptions {
  /** The document `$ref: '#/...'` pointers resolve against. */
  readonly root?: object;
  /** Add undeclared properties where the schema allows them (additionalProperties true or absent). Default true. */
  readonly extraProperties?: boolean;
  /** Deepest nesting generated; past it optional properties and array items are left out (guards recursive schemas). Default 6. */
  readonly maxDepth?: number;
}

/** A schema this module cannot generate from (unsatisfiable, unresolvable $ref, unsupported pattern). */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

export const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;
export const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;

export interface NumericBound {
  readonly value: number;
  readonly exclusive: boolean;
}

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

const DEFAULT_MAX_DEPTH = 6;

interface Context {
  readonly root: object | undefined;
  readonly extraProperties: boolean;
  readonly maxDepth: number;
}

/** A JSON Schema as a fast-check arbitrary of JSON values (int64 as bigint). Throws SchemaError when it cannot. */
export function arbitraryFromSchema(schema: JsonSchemaDefinition, options: SchemaArbitraryOptions = {}): fc.Arbitrary<JsonValue> {
  const context: Context = {
    root: options.root,
    extraProperties: options.extraProperties ?? true,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  return buildAll([schema], context, 0);
}

export function describeSchema(schema: JsonSchemaDefinition, options: Pick<SchemaArbitraryOptions, 'root'> = {}): SchemaFacts {
  const context: Context = { root: options.root, extraProperties: false, maxDepth: DEFAULT_MAX_DEPTH };
  const list = flatten([schema], context);
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

/**
 * A copy of `schema` without the int64 bounds prism-http invents (±(2^53−1), not in the author's
 * explicitProperties), so a validator judges int64 values by the author's words. Shares nothing with
 * the input; cycles are kept as cycles.
 */
export function withoutPrismInt64Bounds<T extends JsonSchemaDefinition>(schema: T): T {
  const copies = new Map<object, unknown>();
  const copy = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const done = copies.get(node);
    if (done !== undefined) return done;
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      copies.set(node, out);
      for (const item of node) out.push(copy(item));
      return out;
    }
    const out: Record<string, unknown> = {};
    copies.set(node, out);
    for (const key of Object.keys(node)) {
      Object.defineProperty(out, key, { value: copy((node as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    }
    const record = node as JsonSchema;
    if (record.format === 'int64') {
      if (isPrismBound(record, 'minimum')) delete out['minimum'];
      if (isPrismBound(record, 'maximum')) delete out['maximum'];
    }
    return out;
  };
  return copy(schema) as T;
}

function isPrismBound(schema: JsonSchema, keyword: 'minimum' | 'maximum'): boolean {
  const explicit = schema['x-stoplight']?.explicitProperties;
  return schema.format === 'int64' && Array.isArray(explicit) && !explicit.includes(keyword);
}

// ---------------------------------------------------------------------------------------------
// Flattening: $ref and allOf become one list of schemas that must all hold.

function flatten(defs: readonly JsonSchemaDefinition[], context: Context, seen = new Set<object>()): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (def: JsonSchemaDefinition): void => {
    if (def === true) return;
    if (def === false) throw new SchemaError('the schema `false` admits no value');
    if (!isRecord(def as unknown)) throw new SchemaError(`not a schema: ${String(def)}`);
    // A schema met twice in one conjunction adds nothing; skipping it also ends $ref/allOf cycles.
    if (seen.has(def)) return;
    seen.add(def);
    out.push(def);
    if (typeof def.$ref === 'string') visit(resolveRef(def.$ref, context));
    for (const part of def.allOf ?? []) visit(part);
  };
  defs.forEach(visit);
  return out;
}

function resolveRef(ref: string, context: Context): JsonSchemaDefinition {
  if (!ref.startsWith('#')) throw new SchemaError(`$ref ${ref}: only references inside the document (#/...) are supported`);
  if (context.root === undefined) throw new SchemaError(`$ref ${ref}: pass options.root to resolve it`);
  const pointer = decodeURIComponent(ref.slice(1));
  let node: unknown = context.root;
  if (pointer !== '') {
    if (!pointer.startsWith('/')) throw new SchemaError(`$ref ${ref}: not a JSON pointer`);
    for (const raw of pointer.slice(1).split('/')) {
      const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, token)) {
        throw new SchemaError(`$ref ${ref}: nothing at ${JSON.stringify(token)}`);
      }
      node = (node as Record<string, unknown>)[token];
    }
  }
  if (typeof node === 'boolean' || isRecord(node)) return node as JsonSchemaDefinition;
  throw new SchemaError(`$ref ${ref} does not point at a schema`);
}

// ---------------------------------------------------------------------------------------------
// Folding: the flattened list becomes one Shape (types intersected, bounds tightened, ...).

interface ObjectPart {
  readonly properties: { readonly [key: string]: JsonSchemaDefinition };
  readonly patternProperties: ReadonlyArray<readonly [RegExp, JsonSchemaDefinition]>;
  readonly additional: JsonSchemaDefinition | undefined;
  readonly restrictsNames: boolean;
}

interface Shape {
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

function fold(list: readonly JsonSchema[]): Shape {
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

// ---------------------------------------------------------------------------------------------
// Building arbitraries.

function buildAll(defs: readonly JsonSchemaDefinition[], context: Context, depth: number): fc.Arbitrary<JsonValue> {
  return buildFlat(flatten(defs, context), context, depth);
}

function buildFlat(list: readonly JsonSchema[], context: Context, depth: number): fc.Arbitrary<JsonValue> {
  // oneOf / anyOf: pick a branch, then everything else must hold together with it.
  const at = list.findIndex((s) => Array.isArray(s.oneOf) || Array.isArray(s.anyOf));
  const chooser = list[at];
  if (chooser !== undefined) {
    const keyword = Array.isArray(chooser.oneOf) ? 'oneOf' : 'anyOf';
    const branches = chooser[keyword] ?? [];
    const rest: Record<string, unknown> = { ...chooser };
    delete rest[keyword];
    const others = list.map((s, i) => (i === at ? (rest as JsonSchema) : s));
    const arbitraries: Array<fc.Arbitrary<JsonValue>> = [];
    const failures: string[] = [];
    for (const branch of branches) {
      try {
        arbitraries.push(buildFlat([...others, ...flatten([branch], context, new Set(others))], context, depth));
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        failures.push(error.message);
      }
    }
    if (arbitraries.length === 0) throw new SchemaError(`no ${keyword} branch can be generated: ${failures.join('; ') || 'no branches'}`);
    return oneOf(arbitraries);
  }
  return fromShape(fold(list), context, depth);
}

function oneOf(arbitraries: ReadonlyArray<fc.Arbitrary<JsonValue>>): fc.Arbitrary<JsonValue> {
  const [first, ...rest] = arbitraries;
  if (first === undefined) throw new SchemaError('nothing to choose from');
  return rest.length === 0 ? first : fc.oneof(first, ...rest);
}

function fromShape(shape: Shape, context: Context, depth: number): fc.Arbitrary<JsonValue> {
  if (shape.enumValues !== undefined) {
    const allowed = shape.enumValues.map((v) => asInt64(v, shape)).filter((v) => satisfiesScalar(v, shape));
    if (allowed.length === 0) throw new SchemaError('no enum/const value satisfies the rest of the schema');
    return fc.constantFrom(...allowed);
  }
  let types: SchemaType[];
  if (shape.types !== undefined) types = [...shape.types];
  else if (shape.hinted.size > 0) types = [...shape.hinted];
  else {
    types = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];
    // An unconstrained value deep down stays a scalar so recursion ends.
    if (depth >= context.maxDepth) types = types.filter((t) => t !== 'array' && t !== 'object');
  }
  if (types.includes('number') && types.includes('integer') && !isIntegerFormat(shape)) types = types.filter((t) => t !== 'integer');
  if (types.length === 0) throw new SchemaError('the schema allows no type (conflicting `type` keywords)');

  const arbitraries: Array<fc.Arbitrary<JsonValue>> = [];
  const failures: string[] = [];
  for (const type of types) {
    try {
      arbitraries.push(arbitraryForType(type, shape, context, depth));
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      failures.push(`${type}: ${error.message}`);
    }
  }
  if (arbitraries.length === 0) throw new SchemaError(failures.join('; '));
  return oneOf(arbitraries);
}

function arbitraryForType(type: SchemaType, shape: Shape, context: Context, depth: number): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(shape);
    case 'number':
      return isIntegerFormat(shape) ? integerArbitrary(shape) : numberArbitrary(shape);
    case 'string':
      return stringArbitrary(shape);
    case 'array':
      return arrayArbitrary(shape, context, depth);
    case 'object':
      return objectArbitrary(shape, context, depth);
  }
}

function isIntegerFormat(shape: Shape): boolean {
  return shape.formats.has('int64') || shape.formats.has('int32');
}

function asInt64(value: JsonValue, shape: Shape): JsonValue {
  return shape.formats.has('int64') && typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
}

// --- numbers -----------------------------------------------------------------------------------

const TWO_53 = 2n ** 53n;
const TWO_31 = 2n ** 31n;
const TWO_32 = 2n ** 32n;

/** Integers that break implementations: 0/±1, the int32 and 2^53 edges, the int64 extremes. */
const INTEGER_EDGES: readonly bigint[] = [
  0n, -1n, 1n,
  TWO_53 - 1n, TWO_53, TWO_53 + 1n, -(TWO_53 - 1n), -TWO_53, -(TWO_53 + 1n),
  INT64.max, INT64.min, INT64.max - 1n, INT64.min + 1n,
  TWO_31 - 1n, TWO_31, -TWO_31, -TWO_31 - 1n, TWO_32, TWO_32 - 1n,
  255n, 256n, 65535n, 65536n, 10n ** 15n, 10n ** 18n,
];

/** The exact integer range the schema allows: author bounds narrowed by the int32/int64 format. */
function integerRangeOf(shape: Shape): { min: bigint | undefined; max: bigint | undefined } {
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

function integerArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const int64 = shape.formats.has('int64');
  const range = integerRangeOf(shape);
  // Without int64 an integer stays a JS-safe number.
  let lo = range.min ?? (int64 ? INT64.min : BigInt(Number.MIN_SAFE_INTEGER));
  let hi = range.max ?? (int64 ? INT64.max : BigInt(Number.MAX_SAFE_INTEGER));
  if (!int64) {
    if (lo < BigInt(Number.MIN_SAFE_INTEGER)) lo = BigInt(Number.MIN_SAFE_INTEGER);
    if (hi > BigInt(Number.MAX_SAFE_INTEGER)) hi = BigInt(Number.MAX_SAFE_INTEGER);
  }
  const integral = shape.multipleOf.filter((m) => Number.isInteger(m)).map((m) => BigInt(m));
  const step = integral.reduce((a, b) => lcm(a, b), 1n);
  const ok = (v: bigint): boolean => v >= lo && v <= hi && v % step === 0n && shape.multipleOf.every((m) => multipleOk(Number(v), m) || Number.isInteger(m));
  const kLo = ceilDiv(lo, step);
  const kHi = floorDiv(hi, step);
  if (kLo > kHi) throw new SchemaError(`no integer within [${lo}, ${hi}]${step > 1n ? ` that is a multiple of ${step}` : ''}`);

  const general = step === 1n ? fc.bigInt(lo, hi) : fc.bigInt(kLo, kHi).map((k) => k * step);
  const edges = [...new Set([...INTEGER_EDGES, lo, hi, lo + 1n, hi - 1n, kLo * step, kHi * step])].filter(ok);
  const nonIntegralMultiples = shape.multipleOf.some((m) => !Number.isInteger(m));
  const base = edges.length > 0 ? fc.oneof({ weight: 2, arbitrary: general }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : general;
  const checked = nonIntegralMultiples ? passing(base, ok, 'an integer of the given multipleOf') : base;
  return int64 ? checked : checked.map((v) => Number(v));
}

/** Doubles that break implementations: fractions, denormals, 2^53 and beyond, the largest finite double. */
const NUMBER_EDGES: readonly number[] = [
  0, 1, -1, 0.5, -0.5, 0.1, -1.5, 1e-7, 5e-324, -5e-324, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 123456789.123456789,
  Number.MAX_VALUE, -Number.MAX_VALUE, Number.EPSILON,
];

function numberArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const ok = (v: number): boolean => numberInBounds(v, shape) && shape.multipleOf.every((m) => multipleOk(v, m));
  const [multiple] = shape.multipleOf;
  let general: fc.Arbitrary<number>;
  if (multiple !== undefined) {
    const kLo = shape.min === undefined ? -1e9 : Math.max(Math.ceil(shape.min.value / multiple), Number.MIN_SAFE_INTEGER);
    const kHi = shape.max === undefined ? 1e9 : Math.min(Math.floor(shape.max.value / multiple), Number.MAX_SAFE_INTEGER);
    if (kLo > kHi) throw new SchemaError(`no multiple of ${multiple} within the bounds`);
    general = fc.integer({ min: kLo, max: kHi }).map((k) => k * multiple);
  } else {
    const constraints: fc.DoubleConstraints = { noNaN: true, noDefaultInfinity: true };
    if (shape.min !== undefined) Object.assign(constraints, { min: shape.min.value, minExcluded: shape.min.exclusive });
    if (shape.max !== undefined) Object.assign(constraints, { max: shape.max.value, maxExcluded: shape.max.exclusive });
    if (shape.min !== undefined && shape.max !== undefined && !(shape.min.value < shape.max.value || (shape.min.value === shape.max.value && !shape.min.exclusive && !shape.max.exclusive))) {
      throw new SchemaError('no number within the bounds');
    }
    general = fc.double(constraints);
  }
  // -0 would be written as 0: keep the payload and its text the same value.
  general = general.map((v) => (v === 0 ? 0 : v));
  const edges = [...new Set([...NUMBER_EDGES, shape.min?.value, shape.max?.value])].filter((v): v is number => v !== undefined && ok(v));
  const mixed = edges.length > 0 ? fc.oneof({ weight: 3, arbitrary: general }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : general;
  return multiple !== undefined ? passing(mixed, ok, `a multiple of ${shape.multipleOf.join(' and ')} within the bounds`) : mixed;
}

function numberInBounds(v: number | bigint, shape: Pick<Shape, 'min' | 'max'>): boolean {
  const { min, max } = shape;
  if (min !== undefined && (v < min.value || (min.exclusive && v <= min.value))) return false;
  if (max !== undefined && (v > max.value || (max.exclusive && v >= max.value))) return false;
  return true;
}

/** ajv's multipleOf rule (without multipleOfPrecision), so generated values pass the validator the suite uses. */
function multipleOk(v: number, m: number): boolean {
  const ratio = v / m;
  return ratio === parseInt(String(ratio), 10);
}

// --- strings -----------------------------------------------------------------------------------

/**
 * Whole strings that break implementations, simplest first (constantFrom shrinks towards the front):
 * empty, whitespace-only, emoji (surrogate pairs, ZWJ sequences, flags), NUL and control characters,
 * quotes and backslashes, right-to-left and combining marks, injection-looking text.
 */
export const EDGE_STRINGS: readonly string[] = [
  '', 'a', ' ', '🌱', '\u0000', '"', '\\', "'", 'é', 'e\u0301', '\t', '\n', '   ', ' \t\r\n', '\u00a0', '\u3000',
  'a\u0000b', '"\'\\/', '\\u0000', 'שלום עולם', 'مرحبا بالعالم', 'abc\u202edef', '😀🌵🪴', '👩\u200d👩\u200d👧\u200d👦', '🇯🇵',
  'Z\u0351\u0352\u0353\u0354\u0355', '\u2028\u2029', '\ufeff', '\u0001\u001f\u007f', '𝐀𝐁𝐂', 'Ünïcödé Ⅻ ß ﬁ',
  '<script>alert(1)</script>', "' OR '1'='1", '${jndi:ldap://x}', '%00%s%n', '__proto__', 'constructor', 'null', 'undefined',
  'true', '0', '-1', '9007199254740993', 'NaN',
];

/** Single code points that break implementations, mixed into generated strings. */
const EDGE_UNITS: readonly string[] = [
  ' ', '"', '\\', '\u0000', '🌱', '😀', '\u05d0', '\u0627', '\u0301', '\u200d', '\u2028', '\ufeff', '\n', '\t', 'é', '\u202e', '𝐀', '\u007f',
];

// Every unit is one code point, so fast-check's length equals JSON Schema's (code points, as ajv counts).
const UNIT = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_UNITS) },
);

/** Length in code points, as JSON Schema (and ajv) counts it. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * `arbitrary.filter(ok)`, refused up front when a probe finds no passing value: a filter that never
 * passes would hang the run instead of saying what is wrong with the schema.
 */
function passing<T>(arbitrary: fc.Arbitrary<T>, ok: (value: T) => boolean, what: string): fc.Arbitrary<T> {
  const probe = fc.sample(arbitrary, { numRuns: 200, seed: 0x5eed });
  if (!probe.some(ok)) throw new SchemaError(`cannot generate ${what}: no candidate out of 200 satisfies the schema`);
  return arbitrary.filter(ok);
}

const LONG = 1000;
const LONGEST = 5000;

const DATE_RANGE = fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

/** Formats generated as such; any other format is left alone (a plain string is generated). */
const STRING_FORMATS: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  'date-time': () => DATE_RANGE.map((d) => d.toISOString()),
  date: () => DATE_RANGE.map((d) => d.toISOString().slice(0, 10)),
  time: () => DATE_RANGE.map((d) => d.toISOString().slice(11)),
  email: () => fc.emailAddress(),
  'idn-email': () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  'uri-reference': () => fc.webUrl(),
  iri: () => fc.webUrl(),
  'iri-reference': () => fc.webUrl(),
  'uri-template': () => fc.webUrl(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  'idn-hostname': () => fc.domain(),
  byte: () => fc.base64String(),
  duration: () => fc.constantFrom('P1D', 'PT1H', 'P1Y2M3DT4H5M6S', 'P4W', 'PT36H'),
  'json-pointer': () => fc.constantFrom('', '/a', '/a~1b/0', '/~0'),
  'relative-json-pointer': () => fc.constantFrom('0', '1/a', '2#'),
  regex: () => fc.constantFrom('^a+$', '.*', '[0-9]{2,3}'),
};

function stringArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const minLength = shape.minLength;
  const maxLength = shape.maxLength;
  if (maxLength !== undefined && maxLength < minLength) throw new SchemaError(`minLength ${minLength} exceeds maxLength ${maxLength}`);
  const ok = (s: string): boolean => {
    const n = codePointLength(s);
    return n >= minLength && (maxLength === undefined || n <= maxLength) && shape.patterns.every((re) => re.test(s));
  };
  const constrained = minLength > 0 || maxLength !== undefined || shape.patterns.length > 0;
  const format = [...shape.formats].find((f) => f in STRING_FORMATS);
  if (format !== undefined) {
    const formatted = (STRING_FORMATS[format] as () => fc.Arbitrary<string>)();
    return constrained ? passing(formatted, ok, `a ${format} string within the length/pattern constraints`) : formatted;
  }

  const edges = EDGE_STRINGS.filter(ok);
  const [firstPattern] = shape.patterns;
  let general: fc.Arbitrary<string>;
  if (firstPattern !== undefined) {
    const cap = maxLength ?? Math.max(2 * minLength, minLength + 64);
    let matching: fc.Arbitrary<string> | undefined;
    try {
      matching = fc.stringMatching(firstPattern, { maxLength: cap, size: minLength > 8 ? 'max' : 'small' });
    } catch {
      // fast-check cannot read every regex (lookahead, \b, backreferences): fall back to filtering plain strings.
    }
    try {
      general = passing(matching ?? fc.string({ unit: UNIT, minLength, maxLength: cap }), ok, `a string matching ${firstPattern.source}`);
    } catch (error) {
      if (edges.length === 0) throw error;
      return fc.constantFrom(...edges);
    }
  } else {
    general = fc.string({ unit: UNIT, minLength, ...(maxLength === undefined ? {} : { maxLength }) });
  }
  const branches: Array<fc.WeightedArbitrary<string>> = [{ weight: 30, arbitrary: general }];
  if (edges.length > 0) branches.push({ weight: 15, arbitrary: fc.constantFrom(...edges) });
  // Thousands of characters, still shrinkable down to minLength (a constant would not shrink). Rare:
  // each costs thousands of draws, and the boundary cases send a 10,000-character string every run.
  if (firstPattern === undefined && (maxLength === undefined || maxLength >= LONG)) {
    branches.push({ weight: 1, arbitrary: fc.string({ unit: UNIT, minLength, maxLength: Math.min(maxLength ?? LONGEST, LONGEST), size: 'max' }) });
  }
  const [first, ...rest] = branches;
  return rest.length === 0 ? general : fc.oneof(first as fc.WeightedArbitrary<string>, ...rest);
}

// --- arrays ------------------------------------------------------------------------------------

const DEFAULT_EXTRA_ITEMS = 4;

function arrayArbitrary(shape: Shape, context: Context, depth: number): fc.Arbitrary<JsonValue> {
  const minItems = shape.minItems;
  const maxItems = shape.maxItems;
  if (maxItems !== undefined && maxItems < minItems) throw new SchemaError(`minItems ${minItems} exceeds maxItems ${maxItems}`);
  const [tuple] = shape.tuples;
  if (tuple !== undefined) {
    // Positional items: each position must satisfy every tuple form given for it.
    const positions = tuple.map((_, i) => shape.tuples.map((t) => t[i]).filter((d): d is JsonSchemaDefinition => d !== undefined));
    if (tuple.length < minItems || (maxItems !== undefined && tuple.length > maxItems)) throw new SchemaError('tuple length conflicts with minItems/maxItems');
    return fc.tuple(...positions.map((conj) => buildAll(conj, context, depth + 1)));
  }
  const deep = depth >= context.maxDepth;
  if (deep && minItems === 0) return fc.constant([]);
  const item = shape.itemSchemas.length > 0 ? buildAll(shape.itemSchemas, context, depth + 1) : anyJson(context, depth + 1);
  const constraints = { minLength: minItems, maxLength: deep ? minItems : Math.min(maxItems ?? Infinity, minItems + DEFAULT_EXTRA_ITEMS) };
  return shape.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => toJsonText(v) }) : fc.array(item, constraints);
}

// --- objects -----------------------------------------------------------------------------------

/** Keys that break implementations when a server turns bodies into plain objects or maps. */
const EDGE_KEYS: readonly string[] = ['extra', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'ключ', '🔑', 'a.b', '$where', '\u0000'];

function partForbids(part: ObjectPart, key: string): boolean {
  if (Object.prototype.hasOwnProperty.call(part.properties, key)) return false;
  if (part.patternProperties.some(([re]) => re.test(key))) return false;
  return part.additional === false;
}

/** Each property with every schema that constrains it (declared, pattern-matched or additional). */
function objectLayout(shape: Shape): { properties: Map<string, JsonSchemaDefinition[]>; required: string[]; forbidden: string[] } {
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

function objectArbitrary(shape: Shape, context: Context, depth: number): fc.Arbitrary<JsonValue> {
  const { properties, forbidden } = objectLayout(shape);
  const requiredForbidden = shape.required.filter((key) => forbidden.includes(key));
  if (requiredForbidden.length > 0) throw new SchemaError(`required ${requiredForbidden.map((k) => `'${k}'`).join(', ')} forbidden by additionalProperties: false`);
  const required = new Set(shape.required);
  const deep = depth >= context.maxDepth;

  const keys: string[] = [];
  const values: Array<fc.Arbitrary<JsonValue | undefined>> = [];
  for (const [key, conj] of properties) {
    const isRequired = required.has(key);
    // Past maxDepth optional properties are left out, which is what ends recursive schemas.
    if (!isRequired && deep) continue;
    const value = buildAll(conj, context, depth + 1);
    keys.push(key);
    // fc.option shrinks towards absent, so counterexamples lose the optional properties they do not need.
    values.push(isRequired ? value : fc.option(value, { nil: undefined, freq: 3 }));
  }

  const additionalSchemas = shape.objectParts.map((p) => p.additional).filter((a): a is JsonSchema => isRecord(a));
  const closed = shape.objectParts.some((p) => p.additional === false || p.patternProperties.length > 0 || p.restrictsNames);
  const maxExtras = Math.min(3, (shape.maxProperties ?? Infinity) - keys.length);
  const wantExtras = additionalSchemas.length > 0 || context.extraProperties;
  let extras: fc.Arbitrary<Array<[string, JsonValue]>> = fc.constant([]);
  if (wantExtras && !closed && !deep && maxExtras > 0) {
    const keyArbitrary = fc
      .oneof(fc.constantFrom(...EDGE_KEYS), fc.string({ unit: UNIT, minLength: 1, maxLength: 12 }))
      .filter((key) => !properties.has(key) && !forbidden.includes(key));
    const valueArbitrary = additionalSchemas.length > 0 ? buildAll(additionalSchemas, context, depth + 1) : anyJson(context, depth + 1);
    const some = fc.uniqueArray(fc.tuple(keyArbitrary, valueArbitrary), { selector: ([key]) => key, minLength: 1, maxLength: maxExtras });
    // Mostly none: extras are a seasoning, not the main course.
    extras = fc.oneof({ weight: 2, arbitrary: fc.constant<Array<[string, JsonValue]>>([]) }, { weight: 1, arbitrary: some });
  }

  const object = fc.tuple(fc.tuple(...values), extras).map(([declared, extra]) => {
    const entries: Array<[string, JsonValue]> = [];
    declared.forEach((value, i) => {
      if (value !== undefined) entries.push([keys[i] as string, value]);
    });
    return jsonObject([...entries, ...extra]);
  });
  if (shape.minProperties > 0 || shape.maxProperties !== undefined) {
    const counted = (o: JsonValue): boolean => {
      const n = Object.keys(o as object).length;
      return n >= shape.minProperties && n <= (shape.maxProperties ?? Infinity);
    };
    return passing(object as fc.Arbitrary<JsonValue>, counted, 'an object with minProperties/maxProperties');
  }
  return object;
}

/** Any JSON value, small and shallow: for schemas that say nothing about a value. */
function anyJson(context: Context, depth: number): fc.Arbitrary<JsonValue> {
  const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : v)),
    fc.oneof(fc.string({ unit: UNIT, maxLength: 12 }), fc.constantFrom(...EDGE_STRINGS)),
  );
  if (depth >= context.maxDepth) return scalar;
  const key = fc.oneof(fc.constantFrom(...EDGE_KEYS), fc.string({ unit: UNIT, maxLength: 8 }));
  return fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.tuple(key, scalar), { selector: ([k]) => k, maxLength: 3 }).map((entries) => jsonObject(entries)),
    },
  );
}

// --- checks shared by enum filtering and edge values ------------------------------------------

function typeOf(value: JsonValue): SchemaType {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

function satisfiesScalar(value: JsonValue, shape: Shape): boolean {
  const type = typeOf(value);
  if (shape.types !== undefined && !shape.types.has(type) && !(type === 'integer' && shape.types.has('number'))) return false;
  if (typeof value === 'string') {
    const n = codePointLength(value);
    return n >= shape.minLength && n <= (shape.maxLength ?? Infinity) && shape.patterns.every((re) => re.test(value));
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (!numberInBounds(value, shape)) return false;
    if (shape.formats.has('int32') && (value < INT32.min || value > INT32.max)) return false;
    if (shape.formats.has('int64') && (value < INT64.min || value > INT64.max)) return false;
    return shape.multipleOf.every((m) => (typeof value === 'bigint' && Number.isInteger(m) ? value % BigInt(m) === 0n : multipleOk(Number(value), m)));
  }
  return true;
}

// --- small helpers -----------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function bigFloor(v: number): bigint {
  return BigInt(Math.floor(v));
}

function bigCeil(v: number): bigint {
  return BigInt(Math.ceil(v));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) === (b < 0n) ? q + 1n : q;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}
