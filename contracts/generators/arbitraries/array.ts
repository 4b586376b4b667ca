/** Arrays: tuples position by position, or a few items of the item schemas (or of any JSON). */
import fc from 'fast-check';
import type { BuildContext } from '../_internals/build-context.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import { SchemaError, type JsonSchemaDefinition } from '../schema/json-schema.js';
import type { Shape } from '../schema/shape.js';
import { anyJson } from './any-json.js';

const DEFAULT_EXTRA_ITEMS = 4;

export function arrayArbitrary(shape: Shape, context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
  const minItems = shape.minItems;
  const maxItems = shape.maxItems;
  if (maxItems !== undefined && maxItems < minItems) throw new SchemaError(`minItems ${minItems} exceeds maxItems ${maxItems}`);
  const [tuple] = shape.tuples;
  if (tuple !== undefined) {
    // Positional items: each position must satisfy every tuple form given for it.
    const positions = tuple.map((_, i) => shape.tuples.map((t) => t[i]).filter((d): d is JsonSchemaDefinition => d !== undefined));
    if (tuple.length < minItems || (maxItems !== undefined && tuple.length > maxItems)) throw new SchemaError('tuple length conflicts with minItems/maxItems');
    return fc.tuple(...positions.map((conj) => context.build(conj, depth + 1)));
  }
  const deep = depth >= context.maxDepth;
  if (deep && minItems === 0) return fc.constant([]);
  const item = shape.itemSchemas.length > 0 ? context.build(shape.itemSchemas, depth + 1) : anyJson(context.maxDepth, depth + 1);
  const constraints = { minLength: minItems, maxLength: deep ? minItems : Math.min(maxItems ?? Infinity, minItems + DEFAULT_EXTRA_ITEMS) };
  return shape.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => toJsonText(v) }) : fc.array(item, constraints);
}
