/**
 * The int32 and int64 formats: their ranges, and the bounds prism-http writes into int64 schemas
 * on its own (±(2^53−1)), which the generators ignore so that int64 values reach their real range.
 */
import type { JsonSchema, JsonSchemaDefinition } from './json-schema.js';

export const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;
export const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;

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

/** True when prism-http, not the author, wrote this bound of an int64 schema. */
export function isPrismBound(schema: JsonSchema, keyword: 'minimum' | 'maximum'): boolean {
  const explicit = schema['x-stoplight']?.explicitProperties;
  return schema.format === 'int64' && Array.isArray(explicit) && !explicit.includes(keyword);
}
