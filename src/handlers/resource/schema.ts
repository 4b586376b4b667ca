/**
 * What a handler reads off a schema as prism gives it ($refs resolved, allOf kept): the properties
 * an object declares, which are required, and whether it is open to others. Read once per
 * operation, at bind time.
 */
import type { BodySchema } from '../../core/openapi/operation.js';

export type Schema = BodySchema;

export interface ObjectShape {
  /** Declared properties, in the document's order (allOf branches in turn). */
  readonly properties: ReadonlyMap<string, Schema>;
  readonly required: ReadonlySet<string>;
  /**
   * Whether properties beyond those declared are answered too: when the schema declares none, or
   * says so with an explicit `additionalProperties` (true or a schema), or combines alternatives
   * (oneOf/anyOf) whose branches we cannot tell apart. JSON Schema's implicit "additional
   * properties allowed" does not count: most documents leave it unsaid, and the Plant Store's
   * `Plant` (name, tag) must not answer the stored `id`.
   */
  readonly open: boolean;
}

type Record_ = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object a schema describes, its allOf branches merged; open when it declares no properties. */
export function objectShape(schema: Schema | undefined): ObjectShape {
  const properties = new Map<string, Schema>();
  const required = new Set<string>();
  let open = false;
  let declared = false;
  const visit = (node: unknown, depth: number): void => {
    if (!isRecord(node) || depth > 16) return;
    if (isRecord(node.properties)) {
      declared = true;
      for (const [name, property] of Object.entries(node.properties)) if (!properties.has(name)) properties.set(name, property as Schema);
    }
    if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === 'string') required.add(name);
    if (node.additionalProperties === true || isRecord(node.additionalProperties)) open = true;
    // An unresolved (recursive) $ref or alternatives: what else the answer holds is not ours to drop.
    if (typeof node.$ref === 'string' || Array.isArray(node.oneOf) || Array.isArray(node.anyOf)) open = true;
    if (Array.isArray(node.allOf)) for (const branch of node.allOf) visit(branch, depth + 1);
  };
  visit(schema, 0);
  return { properties, required, open: open || !declared };
}

/** The schema of an array's items: the schema itself when it is an array, else undefined. */
export function arrayItems(schema: Schema | undefined): Schema | undefined {
  if (!isRecord(schema)) return undefined;
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array')) || schema.items !== undefined) {
    return isRecord(schema.items) ? (schema.items as Schema) : {};
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const items = arrayItems(branch as Schema);
      if (items !== undefined) return items;
    }
  }
  return undefined;
}

/** The JSON type a schema names first ('integer', 'string', …); undefined when it names none. */
export function typeOf(schema: Schema | undefined): string | undefined {
  if (!isRecord(schema)) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type): type is string => typeof type === 'string' && type !== 'null');
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const type = typeOf(branch as Schema);
      if (type !== undefined) return type;
    }
  }
  return undefined;
}
