/**
 * Reading a schema as prism gives it: `$ref`s into the document prism bundled with the operation
 * resolved, `allOf` merged, the first `oneOf`/`anyOf` branch taken. Shared by the refusal bodies
 * and the form and multipart readers, which need a schema's properties and types, not its checks.
 */

export type Schema = Readonly<Record<string, unknown>>;

/** Deep enough for any body read here; a cyclic schema stops there. */
const MAX_DEPTH = 8;

/** Resolves a local `$ref` ("#/…") against the document prism bundled with the operation. */
export type Resolve = (ref: string) => Schema | undefined;

/** `allOf` merged, the first `oneOf`/`anyOf` branch taken, `$ref` resolved: one schema to read. */
export function flatten(schema: Schema, resolve: Resolve, depth: number): Schema {
  if (depth > MAX_DEPTH) return schema;
  let current = schema;
  if (typeof current.$ref === 'string') current = { ...(resolve(current.$ref) ?? {}), ...withoutKey(current, '$ref') };
  const branch = firstOf(current.oneOf) ?? firstOf(current.anyOf);
  if (branch !== undefined) current = { ...withoutKey(withoutKey(current, 'oneOf'), 'anyOf'), ...flatten(branch, resolve, depth + 1) };
  if (Array.isArray(current.allOf)) {
    let merged: Record<string, unknown> = withoutKey(current, 'allOf');
    for (const part of current.allOf as Schema[]) {
      const flat = flatten(part, resolve, depth + 1);
      merged = {
        ...flat,
        ...merged,
        properties: { ...((flat.properties as object | undefined) ?? {}), ...((merged.properties as object | undefined) ?? {}) },
        required: [...((flat.required as string[] | undefined) ?? []), ...((merged.required as string[] | undefined) ?? [])],
      };
    }
    current = merged;
  }
  return current;
}

function firstOf(list: unknown): Schema | undefined {
  return Array.isArray(list) && typeof list[0] === 'object' && list[0] !== null ? (list[0] as Schema) : undefined;
}

function withoutKey(schema: Schema, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

/** The schema's type: the first non-null one declared, else what its keywords imply. */
export function typeOf(schema: Schema): string {
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((one) => one !== 'null') : schema.type;
  if (typeof type === 'string') return type;
  if (schema.properties !== undefined || schema.required !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'string';
}

/** `$ref`s left in prism's schemas point into the document it bundled with the operation ("#/__bundled__/…"). */
export function resolverOf(operation: object): Resolve {
  const root = { __bundled__: (operation as { __bundled__?: unknown }).__bundled__ };
  return (ref) => {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    }
    return typeof node === 'object' && node !== null ? (node as Record<string, unknown>) : undefined;
  };
}
