/** Non-integral numbers (doubles) within the schema's bounds, leaning on the number edges. */
import fc from 'fast-check';
import { passing } from '../_internals/passing.js';
import { NUMBER_EDGES } from '../edges.js';
import type { JsonValue } from '../json-value.js';
import { SchemaError } from '../schema/json-schema.js';
import { multipleOk, numberInBounds } from '../schema/satisfies.js';
import type { Shape } from '../schema/shape.js';

export function numberArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const ok = (v: number): boolean => numberInBounds(v, shape) && shape.multipleOf.every((m) => multipleOk(v, m));
  const [multiple] = shape.multipleOf;
  let general: fc.Arbitrary<number>;
  if (multiple !== undefined) {
    const kLo = shape.min === undefined ? -1e9 : Math.max(Math.ceil(shape.min.value / multiple), Number.MIN_SAFE_INTEGER);
    const kHi = shape.max === undefined ? 1e9 : Math.min(Math.floor(shape.max.value / multiple), Number.MAX_SAFE_INTEGER);
    if (kLo > kHi) throw new SchemaError(`no multiple of ${multiple} within the bounds`);
    general = fc.integer({ min: kLo, max: kHi }).map((k) => k * multiple);
  } else {
    const constraints: fc.DoubleConstraints = { noNaN: true, noDefaultInfinity: true };
    if (shape.min !== undefined) Object.assign(constraints, { min: shape.min.value, minExcluded: shape.min.exclusive });
    if (shape.max !== undefined) Object.assign(constraints, { max: shape.max.value, maxExcluded: shape.max.exclusive });
    if (
      shape.min !== undefined &&
      shape.max !== undefined &&
      !(shape.min.value < shape.max.value || (shape.min.value === shape.max.value && !shape.min.exclusive && !shape.max.exclusive))
    ) {
      throw new SchemaError('no number within the bounds');
    }
    general = fc.double(constraints);
  }
  // -0 would be written as 0: keep the payload and its text the same value.
  general = general.map((v) => (v === 0 ? 0 : v));
  const edges = [...new Set([...NUMBER_EDGES, shape.min?.value, shape.max?.value])].filter((v): v is number => v !== undefined && ok(v));
  const mixed = edges.length > 0 ? fc.oneof({ weight: 3, arbitrary: general }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : general;
  return multiple !== undefined ? passing(mixed, ok, `a multiple of ${shape.multipleOf.join(' and ')} within the bounds`) : mixed;
}
