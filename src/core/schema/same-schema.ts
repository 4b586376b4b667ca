/**
 * Whether two schemas declare alike: the same object (one `$ref`, dereferenced), or the same JSON
 * text. A recursive schema has no JSON text, so it is never alike another object. Remembered by the
 * pair: the stand-in asks once per operation, verify once per case.
 */
const known = new WeakMap<object, WeakMap<object, boolean>>();

export function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  let byOther = known.get(a);
  if (byOther === undefined) known.set(a, (byOther = new WeakMap()));
  let same = byOther.get(b);
  if (same === undefined) {
    try {
      same = JSON.stringify(a) === JSON.stringify(b);
    } catch {
      same = false;
    }
    byOther.set(b, same);
  }
  return same;
}
