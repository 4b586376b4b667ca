/**
 * The one normaliser (Schemathesis' core/jsonschema pattern): a schema read as one object, with
 * its `$ref` resolved and its `allOf` merged by one rule, so that every reader (inference, the
 * handlers, the refusal bodies, the form reader, the examples) sees the same facts.
 *
 * The rule: the parts are the `$ref`'s target, then the `allOf` branches in order, then the
 * schema's own keywords (the most specific word comes last); each merges over the ones before.
 * - `type` is intersected (integer within number is integer); OpenAPI 3.0's `nullable: true`
 *   becomes a "null" in the type list;
 * - `required` is unioned;
 * - `readOnly` and `writeOnly` are kept once any part says so;
 * - a property (or `items`) restated by several parts becomes the `allOf` of its statements, in
 *   order, which objectShape normalises in turn: a later branch restating `id` as readOnly is seen;
 * - any other keyword: the later part's.
 * Shallow: the result has no `allOf` and no resolved `$ref` at its top; its properties are read
 * (and normalised) by properties.ts. A `$ref` that cannot be followed (a cycle, outside the
 * document) is left in place, for readers to treat as "anything".
 */
import { resolvePointer } from './pointer.js';

export type Schema = Readonly<Record<string, unknown>>;

/** Finds what a local `$ref` names; undefined when nothing is there. */
export type Resolve = (ref: string) => Schema | undefined;

export interface ReadOptions {
  /** Follows `$ref`s left in the schema (prism inlines all but recursive ones). */
  readonly resolve?: Resolve | undefined;
}

/** Deep enough for any real schema; a deeper (or cyclic) one is read as far as this. */
export const MAX_DEPTH = 32;

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A resolver over one root document (the bundle prism keeps beside an operation, or a whole document). */
export function resolverIn(root: unknown): Resolve {
  return (ref) => {
    const found = resolvePointer(root, ref);
    return isSchema(found) ? found : undefined;
  };
}

const TYPE_NAMES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/** `schema` as one object: `$ref` followed, `allOf` merged, `nullable` read into the type list. */
export function normalise(schema: unknown, options: ReadOptions = {}): Schema {
  return normaliseAt(schema, options.resolve, 0, []);
}

function normaliseAt(schema: unknown, resolve: Resolve | undefined, depth: number, refs: readonly string[]): Schema {
  if (schema === false) return { not: {} };
  if (!isSchema(schema)) return {};
  const { $ref, allOf, ...own } = schema;
  const hasAllOf = Array.isArray(allOf) && allOf.length > 0;
  if (typeof $ref !== 'string' && !hasAllOf && own.nullable !== true) return schema;
  if (depth >= MAX_DEPTH) return schema;
  const parts: Schema[] = [];
  let ownPart: Schema = own;
  if (typeof $ref === 'string') {
    const target = resolve !== undefined && !refs.includes($ref) ? resolve($ref) : undefined;
    if (target === undefined) ownPart = { ...own, $ref };
    else parts.push(normaliseAt(target, resolve, depth + 1, [...refs, $ref]));
  }
  if (hasAllOf) for (const branch of allOf as readonly unknown[]) parts.push(normaliseAt(branch, resolve, depth + 1, refs));
  parts.push(withNullable(ownPart));
  return parts.reduce(merge);
}

/** OpenAPI 3.0's `nullable: true` beside a type: the type list with "null". */
function withNullable(schema: Schema): Schema {
  if (schema.nullable !== true || schema.type === undefined) return schema;
  const { nullable: _said, ...rest } = schema;
  const types = typeList(schema.type) ?? [];
  return { ...rest, type: types.includes('null') ? types : [...types, 'null'] };
}

/** Two statements about one value merged into one: `later` over `earlier`, by the rule above. */
export function merge(earlier: Schema, later: Schema): Schema {
  const merged: Record<string, unknown> = { ...earlier, ...later };
  if (earlier.type !== undefined && later.type !== undefined) merged.type = intersectTypes(earlier.type, later.type);
  if (Array.isArray(earlier.required) && Array.isArray(later.required)) merged.required = [...new Set([...earlier.required, ...later.required])];
  for (const flag of ['readOnly', 'writeOnly'] as const) if (earlier[flag] === true || later[flag] === true) merged[flag] = true;
  if (isSchema(earlier.properties) && isSchema(later.properties)) {
    const properties: Record<string, unknown> = { ...earlier.properties };
    for (const [name, stated] of Object.entries(later.properties)) {
      properties[name] = Object.hasOwn(earlier.properties, name) ? { allOf: [earlier.properties[name], stated] } : stated;
    }
    merged.properties = properties;
  }
  if (isSchema(earlier.items) && isSchema(later.items)) merged.items = { allOf: [earlier.items, later.items] };
  return merged;
}

/** The type names a `type` keyword lists; undefined when it lists none we know. */
export function typeList(type: unknown): string[] | undefined {
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  const known = list.filter((one): one is string => typeof one === 'string' && TYPE_NAMES.has(one));
  return known.length > 0 ? known : undefined;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const left = typeList(a);
  const right = typeList(b);
  if (left === undefined) return b;
  if (right === undefined) return a;
  const both = left.flatMap((one) => {
    if (right.includes(one)) return [one];
    if ((one === 'integer' && right.includes('number')) || (one === 'number' && right.includes('integer'))) return ['integer'];
    return [];
  });
  const unique = [...new Set(both)];
  // Parts that share no type admit no value: the document's mistake; the later word is kept.
  if (unique.length === 0) return b;
  return unique.length === 1 ? unique[0] : unique;
}
