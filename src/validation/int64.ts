import type { ExactJson } from './exact-json.js';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** 2^63 as a double: the first value above int64 (2^63 − 1 itself has no double). */
const TWO_POW_63 = 2 ** 63;
/** The largest double below 2^63 and the first below −2^63. */
const BELOW_TWO_POW_63 = TWO_POW_63 - 1024;
const BELOW_MINUS_TWO_POW_63 = -TWO_POW_63 - 2048;

/**
 * The value as the schema validator sees it: every bigint becomes a double on the same side of
 * the int64 bounds as the exact value. A plain Number(2n ** 63n - 1n) would round up to 2^63 and
 * fail an int64 check it passes; this keeps every int64 verdict exact while the validator
 * (Ajv, through prism-http) keeps working on numbers.
 */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') return int64SafeDouble(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(validationView);
  const view: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty, not assignment: a "__proto__" key must stay an own property.
    Object.defineProperty(view, key, { value: validationView(child), enumerable: true, writable: true, configurable: true });
  }
  return view;
}

function int64SafeDouble(value: bigint): number {
  const double = Number(value);
  if (value > INT64_MAX) return Math.max(double, TWO_POW_63);
  if (value < INT64_MIN) return Math.min(double, BELOW_MINUS_TWO_POW_63);
  return double >= TWO_POW_63 ? BELOW_TWO_POW_63 : double;
}

type Schema = Record<string, unknown>;

/**
 * prism-http (through @stoplight/http-spec) gives every int64 schema the bounds ±(2^53 − 1), so it
 * refuses ids a JS number cannot hold. Where the author wrote no bound of their own (prism records
 * what was written in x-stoplight.explicitProperties), the true int64 bounds replace them.
 * Returns a copy; the operation prism built is left as it is.
 */
export function widenInt64Bounds<T>(schema: T): T {
  return widen(schema, new WeakMap()) as T;
}

function widen(node: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const done = seen.get(node);
  if (done !== undefined) return done;
  if (Array.isArray(node)) {
    const copy: unknown[] = [];
    seen.set(node, copy);
    for (const item of node) copy.push(widen(item, seen));
    return copy;
  }
  const copy: Schema = {};
  seen.set(node, copy);
  for (const [key, child] of Object.entries(node)) copy[key] = widen(child, seen);
  if (copy.format === 'int64') {
    const explicit = explicitProperties(copy);
    if (!explicit.has('minimum') && !explicit.has('exclusiveMinimum')) {
      copy.minimum = -TWO_POW_63;
    }
    if (!explicit.has('maximum') && !explicit.has('exclusiveMaximum')) {
      // 2^63 − 1 is not a double; "below 2^63" says the same for the view above.
      delete copy.maximum;
      copy.exclusiveMaximum = TWO_POW_63;
    }
  }
  return copy;
}

function explicitProperties(schema: Schema): Set<string> {
  const stoplight = schema['x-stoplight'];
  const listed = typeof stoplight === 'object' && stoplight !== null ? (stoplight as Schema).explicitProperties : undefined;
  return new Set(Array.isArray(listed) ? listed.filter((name): name is string => typeof name === 'string') : []);
}

/** Ajv says "must be < 9223372036854775808" for the widened bound; say it in int64's own words. */
export function int64Message(message: string): string {
  return message.replace(`must be < ${TWO_POW_63}`, `must be <= ${INT64_MAX} (int64)`).replace(`must be >= ${-TWO_POW_63}`, `must be >= ${INT64_MIN} (int64)`);
}
