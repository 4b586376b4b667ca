import fc from 'fast-check';
import { EDGE_KEYS, EDGE_STRINGS } from '../edges.js';
import { jsonObject, type JsonValue } from '../json-value.js';
import { UNIT } from './string.js';

/** Any JSON value, small and shallow: for schemas that say nothing about a value. */
export function anyJson(maxDepth: number, depth: number): fc.Arbitrary<JsonValue> {
  const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : v)),
    fc.oneof(fc.string({ unit: UNIT, maxLength: 12 }), fc.constantFrom(...EDGE_STRINGS)),
  );
  if (depth >= maxDepth) return scalar;
  const key = fc.oneof(fc.constantFrom(...EDGE_KEYS), fc.string({ unit: UNIT, maxLength: 8 }));
  return fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.tuple(key, scalar), { selector: ([k]) => k, maxLength: 3 }).map((entries) => jsonObject(entries)),
    },
  );
}
