/**
 * Reading a schema as prism gives it, for the refusal bodies and the form and multipart readers,
 * which need a schema's properties and types, not its checks: the one normaliser
 * (core/schema/normalise.ts: `$ref` resolved, `allOf` merged), and the first `oneOf`/`anyOf`
 * branch taken, as a body to fill or read has to pick one.
 */
import { isSchema, normalise, resolverIn, type Resolve, type Schema } from '../schema/normalise.js';
import { bundleRootOf } from '../prism/adapter.js';

export type { Resolve, Schema };

/** Deep enough for any body read here; a cyclic schema stops there. */
const MAX_DEPTH = 8;

/** `allOf` merged, the first `oneOf`/`anyOf` branch taken, `$ref` resolved: one schema to read. */
export function flatten(schema: Schema, resolve: Resolve, depth: number): Schema {
  const current = normalise(schema, { resolve });
  if (depth > MAX_DEPTH) return current;
  const branch = firstOf(current.oneOf) ?? firstOf(current.anyOf);
  if (branch === undefined) return current;
  const { oneOf: _one, anyOf: _any, ...rest } = current;
  return { ...rest, ...flatten(branch, resolve, depth + 1) };
}

function firstOf(list: unknown): Schema | undefined {
  return Array.isArray(list) && isSchema(list[0]) ? list[0] : undefined;
}

/** `$ref`s left in prism's schemas point into the document it bundled with the operation (see bundleRootOf). */
export function resolverOf(operation: object): Resolve {
  return resolverIn(bundleRootOf(operation));
}
