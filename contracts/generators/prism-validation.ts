/**
 * prism-http's own schema validator (ajv, as prism's mock server runs it), judged by the author's
 * words: the int64 bounds prism invents (±(2^53−1)) are removed first, since they would refuse
 * legitimate int64 values. The exact int64 range is not checked here (the value is a JS number by
 * then): compare int64 values as bigint separately.
 */
import { validateAgainstSchema } from '../../src/core/prism/adapter.js';
import { withoutPrismInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import type { JsonSchema } from './schema-arbitrary.js';
// ValidationContext.Input: messages read "Request body ..." as prism writes them for requests.
const INPUT = 0;

const stripped = new WeakMap<object, JsonSchema>();

/** prism-http's messages for `value` against `schema`; empty when valid. `value` is what JSON.parse gave. */
export function prismValidationErrors(value: unknown, schema: JsonSchema, prefix = 'body'): string[] {
  let own = stripped.get(schema);
  if (own === undefined) {
    own = withoutPrismInt64Bounds(schema);
    stripped.set(schema, own);
  }
  // Beware: prism answers None ("valid") also when ajv cannot compile the schema; callers' tests should
  // show the schema refuses something.
  const result = validateAgainstSchema(value, own as Parameters<typeof validateAgainstSchema>[1], false, INPUT, prefix);
  return result._tag === 'None' ? [] : result.value.map((diagnostic) => diagnostic.message);
}
