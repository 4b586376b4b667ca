/**
 * Integers within the schema's exact range (bigint for int64, a JS-safe number otherwise), leaning on
 * the integer edges; multipleOf is generated as multiples, not filtered for.
 */
import fc from 'fast-check';
import { ceilDiv, floorDiv, lcm } from '../_internals/bigint-math.js';
import { passing } from '../_internals/passing.js';
import { INTEGER_EDGES } from '../edges.js';
import type { JsonValue } from '../json-value.js';
import { INT64 } from '../schema/integer-formats.js';
import { SchemaError } from '../schema/json-schema.js';
import { multipleOk } from '../schema/satisfies.js';
import { integerRangeOf, type Shape } from '../schema/shape.js';

export function integerArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const int64 = shape.formats.has('int64');
  const range = integerRangeOf(shape);
  // Without int64 an integer stays a JS-safe number.
  let lo = range.min ?? (int64 ? INT64.min : BigInt(Number.MIN_SAFE_INTEGER));
  let hi = range.max ?? (int64 ? INT64.max : BigInt(Number.MAX_SAFE_INTEGER));
  if (!int64) {
    if (lo < BigInt(Number.MIN_SAFE_INTEGER)) lo = BigInt(Number.MIN_SAFE_INTEGER);
    if (hi > BigInt(Number.MAX_SAFE_INTEGER)) hi = BigInt(Number.MAX_SAFE_INTEGER);
  }
  const integral = shape.multipleOf.filter((m) => Number.isInteger(m)).map((m) => BigInt(m));
  const step = integral.reduce((a, b) => lcm(a, b), 1n);
  const ok = (v: bigint): boolean => v >= lo && v <= hi && v % step === 0n && shape.multipleOf.every((m) => multipleOk(Number(v), m) || Number.isInteger(m));
  const kLo = ceilDiv(lo, step);
  const kHi = floorDiv(hi, step);
  if (kLo > kHi) throw new SchemaError(`no integer within [${lo}, ${hi}]${step > 1n ? ` that is a multiple of ${step}` : ''}`);

  const general = step === 1n ? fc.bigInt(lo, hi) : fc.bigInt(kLo, kHi).map((k) => k * step);
  const edges = [...new Set([...INTEGER_EDGES, lo, hi, lo + 1n, hi - 1n, kLo * step, kHi * step])].filter(ok);
  const nonIntegralMultiples = shape.multipleOf.some((m) => !Number.isInteger(m));
  const base = edges.length > 0 ? fc.oneof({ weight: 2, arbitrary: general }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : general;
  const checked = nonIntegralMultiples ? passing(base, ok, 'an integer of the given multipleOf') : base;
  return int64 ? checked : checked.map((v) => Number(v));
}
