/**
 * Whether a value keeps a Shape's scalar rules (type, length, pattern, bounds, format range,
 * multipleOf): how enum values and edge values are filtered, so only valid ones are generated.
 */
import { codePointLength } from '../../../src/core/schema/string-length.js';
import type { JsonValue } from '../json-value.js';
import { INT32, INT64 } from './integer-formats.js';
import { valueType } from '../../../src/core/schema/types.js';
import type { Shape } from './shape.js';

export function satisfiesScalar(value: JsonValue, shape: Shape): boolean {
  const type = valueType(value);
  if (shape.types !== undefined && !shape.types.has(type) && !(type === 'integer' && shape.types.has('number'))) return false;
  if (typeof value === 'string') {
    const n = codePointLength(value);
    return n >= shape.minLength && n <= (shape.maxLength ?? Infinity) && shape.patterns.every((re) => re.test(value));
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (!numberInBounds(value, shape)) return false;
    if (shape.formats.has('int32') && (value < INT32.min || value > INT32.max)) return false;
    if (shape.formats.has('int64') && (value < INT64.min || value > INT64.max)) return false;
    return shape.multipleOf.every((m) => (typeof value === 'bigint' && Number.isInteger(m) ? value % BigInt(m) === 0n : multipleOk(Number(value), m)));
  }
  return true;
}

export function numberInBounds(v: number | bigint, shape: Pick<Shape, 'min' | 'max'>): boolean {
  const { min, max } = shape;
  if (min !== undefined && (v < min.value || (min.exclusive && v <= min.value))) return false;
  if (max !== undefined && (v > max.value || (max.exclusive && v >= max.value))) return false;
  return true;
}

/** ajv's multipleOf rule (without multipleOfPrecision), so generated values pass the validator the suite uses. */
export function multipleOk(v: number, m: number): boolean {
  const ratio = v / m;
  return ratio === parseInt(String(ratio), 10);
}

export { codePointLength };
