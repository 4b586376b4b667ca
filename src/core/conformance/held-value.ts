/**
 * Whether a value sent under a property can be held, as sent, by the item's own declaration of that
 * property. Most documents declare a property alike on the way in and out; some do not (Ory Kratos's
 * `credentials`: `{password: {config: {password}}}` in a create, a map of `{type, identifiers, …}` in
 * an identity), and a server turns such a value into something else. One rule for both sides:
 * `serve` stores such a value only where it fits (handlers/resource/held-only.ts), and `verify`
 * expects it back only where it fits (response-reflects-request).
 */
import type { JsonValue } from '../json/exact-json.js';
import { compileBodyCheck, type BodyCheck } from '../prism/adapter.js';

/** The check of a value against `heldAs`, or undefined where `sentAs` declares it alike (every value sent fits). */
export type Holds = ((value: JsonValue) => boolean) | undefined;

const alike = new WeakMap<object, WeakMap<object, boolean>>();
const checks = new WeakMap<object, BodyCheck | null>();

export function holdsOf(heldAs: unknown, sentAs: unknown, operation: object | undefined): Holds {
  if (typeof heldAs !== 'object' || heldAs === null || declaredAlike(heldAs, sentAs)) return undefined;
  return (value) => {
    let check = checks.get(heldAs);
    // Compiled on the first value that needs it, not when an operation is read.
    if (check === undefined) checks.set(heldAs, (check = compileBodyCheck(heldAs, operation, 'request', 'value') ?? null));
    return check === null || (check(value) ?? []).length === 0;
  };
}

/** The same object, or the same JSON text (a recursive schema, which has none, counts as declared otherwise). */
function declaredAlike(heldAs: object, sentAs: unknown): boolean {
  if (heldAs === sentAs) return true;
  if (typeof sentAs !== 'object' || sentAs === null) return false;
  let known = alike.get(heldAs);
  if (known === undefined) alike.set(heldAs, (known = new WeakMap()));
  let same = known.get(sentAs);
  if (same === undefined) {
    try {
      same = JSON.stringify(heldAs) === JSON.stringify(sentAs);
    } catch {
      same = false;
    }
    known.set(sentAs, same);
  }
  return same;
}
