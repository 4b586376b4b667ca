/** Flattening: $ref and allOf become one list of schemas that must all hold. */
import { pointerSegments } from '../../../src/core/schema/pointer.js';
import { isRecord, SchemaError, type JsonSchema, type JsonSchemaDefinition } from './json-schema.js';

/** `defs` and everything they pull in through $ref (resolved against `root`) and allOf, each schema once. */
export function flatten(defs: readonly JsonSchemaDefinition[], root: object | undefined, seen = new Set<object>()): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (def: JsonSchemaDefinition): void => {
    if (def === true) return;
    if (def === false) throw new SchemaError('the schema `false` admits no value');
    if (!isRecord(def as unknown)) throw new SchemaError(`not a schema: ${String(def)}`);
    // A schema met twice in one conjunction adds nothing; skipping it also ends $ref/allOf cycles.
    if (seen.has(def)) return;
    seen.add(def);
    out.push(def);
    if (typeof def.$ref === 'string') visit(resolveRef(def.$ref, root));
    for (const part of def.allOf ?? []) visit(part);
  };
  defs.forEach(visit);
  return out;
}

/** A local `$ref`, read by the one pointer rule (src/core/schema/pointer.ts: each segment decoded on its own). */
function resolveRef(ref: string, root: object | undefined): JsonSchemaDefinition {
  if (!ref.startsWith('#')) throw new SchemaError(`$ref ${ref}: only references inside the document (#/...) are supported`);
  if (root === undefined) throw new SchemaError(`$ref ${ref}: pass options.root to resolve it`);
  const segments = pointerSegments(ref);
  if (segments === undefined) throw new SchemaError(`$ref ${ref}: not a JSON pointer`);
  let node: unknown = root;
  for (const token of segments) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, token)) {
      throw new SchemaError(`$ref ${ref}: nothing at ${JSON.stringify(token)}`);
    }
    node = (node as Record<string, unknown>)[token];
  }
  if (typeof node === 'boolean' || isRecord(node)) return node as JsonSchemaDefinition;
  throw new SchemaError(`$ref ${ref} does not point at a schema`);
}
