/**
 * Whether two schemas declare alike, one reading for every caller: the same object, or the same
 * JSON text without prism's `x-stoplight` id. prism gives each use of one `$ref` at the top of a body
 * its own object with its own id, so two uses of one component differ only there: they declare
 * alike (held-value.ts: a property the request and the item both declare by one `$ref` needs no check
 * of its own; refusal-body.ts: the error most operations declare by one `$ref` is one shape). A
 * recursive schema has no JSON text, so it is never alike another object. Remembered by the pair:
 * the stand-in asks once per operation, verify once per case.
 */
const known = new WeakMap<object, WeakMap<object, boolean>>();

export function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  let byOther = known.get(a);
  if (byOther === undefined) known.set(a, (byOther = new WeakMap()));
  let same = byOther.get(b);
  if (same === undefined) {
    const text = schemaText(a);
    same = text !== undefined && text === schemaText(b);
    byOther.set(b, same);
  }
  return same;
}

/**
 * A schema's JSON text as sameSchema compares it: without prism's per-use `x-stoplight` id, with what
 * else `x-stoplight` says (explicitProperties: which keywords the author wrote, so whether a bound is
 * the author's or prism's, core/prism/int64-bounds.ts); undefined for a recursive schema.
 */
export function schemaText(schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema, withoutId);
  } catch {
    return undefined;
  }
}

function withoutId(name: string, value: unknown): unknown {
  if (name !== 'x-stoplight' || typeof value !== 'object' || value === null || !('id' in value)) return value;
  const { id: _id, ...rest } = value as Record<string, unknown>;
  return Object.keys(rest).length === 0 ? undefined : rest;
}
