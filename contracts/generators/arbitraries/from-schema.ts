/**
 * JSON Schema → fast-check. Values are generated from the schema as written, so a tighter document
 * tightens generation; within it, generation leans on the values that break implementations
 * (empty and huge strings, NUL, emoji, right-to-left text, int64 extremes, 2^53 ± 1).
 *
 * This file is the dispatch: $ref/allOf flattened, oneOf/anyOf branched, the result folded into a
 * Shape and handed to the builder of each type the Shape allows.
 */
import fc from 'fast-check';
import type { BuildContext } from '../_internals/build-context.js';
import type { JsonValue } from '../json-value.js';
import { flatten } from '../schema/flatten.js';
import { SchemaError, type JsonSchema, type JsonSchemaDefinition, type SchemaType } from '../schema/json-schema.js';
import { satisfiesScalar } from '../schema/satisfies.js';
import { fold, isIntegerFormat, type Shape } from '../schema/shape.js';
import { arrayArbitrary } from './array.js';
import { integerArbitrary } from './integer.js';
import { numberArbitrary } from './number.js';
import { objectArbitrary } from './object.js';
import { stringArbitrary } from './string.js';

export interface SchemaArbitraryOptions {
  /** The document `$ref: '#/...'` pointers resolve against. */
  readonly root?: object;
  /** Add undeclared properties where the schema allows them (additionalProperties true or absent). Default true. */
  readonly extraProperties?: boolean;
  /** Deepest nesting generated; past it optional properties and array items are left out (guards recursive schemas). Default 6. */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 6;

type Built = { readonly arbitrary: fc.Arbitrary<JsonValue> } | { readonly error: SchemaError };
const NO_ROOT = {};
/**
 * What each schema (an object of a loaded document) was built into, by root and options. A run
 * builds from one parameter's or body's schema for every plan and family that sends it, and a build
 * can cost milliseconds (fast-check's stringMatching, the probes of `passing`); arbitraries are
 * immutable, so a shared one draws what a fresh one would.
 */
const built = new WeakMap<object, WeakMap<object, Map<string, Built>>>();

/** A JSON Schema as a fast-check arbitrary of JSON values (int64 as bigint). Throws SchemaError when it cannot. */
export function arbitraryFromSchema(schema: JsonSchemaDefinition, options: SchemaArbitraryOptions = {}): fc.Arbitrary<JsonValue> {
  if (typeof schema !== 'object' || schema === null) return buildFresh(schema, options);
  let byRoot = built.get(schema);
  if (byRoot === undefined) built.set(schema, (byRoot = new WeakMap()));
  const root = options.root ?? NO_ROOT;
  let byOptions = byRoot.get(root);
  if (byOptions === undefined) byRoot.set(root, (byOptions = new Map()));
  const key = `${options.extraProperties ?? true}|${options.maxDepth ?? DEFAULT_MAX_DEPTH}`;
  let entry = byOptions.get(key);
  if (entry === undefined) {
    try {
      entry = { arbitrary: buildFresh(schema, options) };
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      entry = { error };
    }
    byOptions.set(key, entry);
  }
  if ('error' in entry) throw entry.error;
  return entry.arbitrary;
}

function buildFresh(schema: JsonSchemaDefinition, options: SchemaArbitraryOptions): fc.Arbitrary<JsonValue> {
  const context: BuildContext = {
    root: options.root,
    extraProperties: options.extraProperties ?? true,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    build: (defs, depth) => buildAll(defs, context, depth),
  };
  return buildAll([schema], context, 0);
}

function buildAll(defs: readonly JsonSchemaDefinition[], context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
  return buildFlat(flatten(defs, context.root), context, depth);
}

function buildFlat(list: readonly JsonSchema[], context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
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
        arbitraries.push(buildFlat([...others, ...flatten([branch], context.root, new Set(others))], context, depth));
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

function fromShape(shape: Shape, context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
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

function arbitraryForType(type: SchemaType, shape: Shape, context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
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

/** An enum value of an int64 schema as the bigint the generators give int64 values as. */
function asInt64(value: JsonValue, shape: Shape): JsonValue {
  return shape.formats.has('int64') && typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
}
