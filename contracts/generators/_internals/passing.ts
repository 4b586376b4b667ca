import fc from 'fast-check';
import { SchemaError } from '../schema/json-schema.js';

/**
 * `arbitrary.filter(ok)`, refused up front when a probe finds no passing value: a filter that never
 * passes would hang the run instead of saying what is wrong with the schema.
 */
export function passing<T>(arbitrary: fc.Arbitrary<T>, ok: (value: T) => boolean, what: string): fc.Arbitrary<T> {
  const probe = fc.sample(arbitrary, { numRuns: 200, seed: 0x5eed });
  if (!probe.some(ok)) throw new SchemaError(`cannot generate ${what}: no candidate out of 200 satisfies the schema`);
  return arbitrary.filter(ok);
}
