/**
 * Objects: every declared property (optional ones shrinking towards absent), now and then a few
 * undeclared ones where the schema allows them, with edge keys such as `__proto__`.
 */
import fc from 'fast-check';
import type { BuildContext } from '../_internals/build-context.js';
import { passing } from '../_internals/passing.js';
import { EDGE_KEYS } from '../edges.js';
import { jsonObject, type JsonValue } from '../json-value.js';
import { isRecord, SchemaError, type JsonSchema } from '../schema/json-schema.js';
import { objectLayout, type Shape } from '../schema/shape.js';
import { anyJson } from './any-json.js';
import { UNIT } from './string.js';

export function objectArbitrary(shape: Shape, context: BuildContext, depth: number): fc.Arbitrary<JsonValue> {
  const { properties, forbidden } = objectLayout(shape);
  const requiredForbidden = shape.required.filter((key) => forbidden.includes(key));
  if (requiredForbidden.length > 0)
    throw new SchemaError(`required ${requiredForbidden.map((k) => `'${k}'`).join(', ')} forbidden by additionalProperties: false`);
  const required = new Set(shape.required);
  const deep = depth >= context.maxDepth;

  const keys: string[] = [];
  const values: Array<fc.Arbitrary<JsonValue | undefined>> = [];
  for (const [key, conj] of properties) {
    const isRequired = required.has(key);
    // Past maxDepth optional properties are left out, which is what ends recursive schemas.
    if (!isRequired && deep) continue;
    const value = context.build(conj, depth + 1);
    keys.push(key);
    // fc.option shrinks towards absent, so counterexamples lose the optional properties they do not need.
    values.push(isRequired ? value : fc.option(value, { nil: undefined, freq: 3 }));
  }

  const additionalSchemas = shape.objectParts.map((p) => p.additional).filter((a): a is JsonSchema => isRecord(a));
  const closed = shape.objectParts.some((p) => p.additional === false || p.patternProperties.length > 0 || p.restrictsNames);
  const maxExtras = Math.min(3, (shape.maxProperties ?? Infinity) - keys.length);
  const wantExtras = additionalSchemas.length > 0 || context.extraProperties;
  let extras: fc.Arbitrary<Array<[string, JsonValue]>> = fc.constant([]);
  if (wantExtras && !closed && !deep && maxExtras > 0) {
    const keyArbitrary = fc
      .oneof(fc.constantFrom(...EDGE_KEYS), fc.string({ unit: UNIT, minLength: 1, maxLength: 12 }))
      .filter((key) => !properties.has(key) && !forbidden.includes(key));
    const valueArbitrary = additionalSchemas.length > 0 ? context.build(additionalSchemas, depth + 1) : anyJson(context.maxDepth, depth + 1);
    const some = fc.uniqueArray(fc.tuple(keyArbitrary, valueArbitrary), { selector: ([key]) => key, minLength: 1, maxLength: maxExtras });
    // Mostly none: extras are a seasoning, not the main course.
    extras = fc.oneof({ weight: 2, arbitrary: fc.constant<Array<[string, JsonValue]>>([]) }, { weight: 1, arbitrary: some });
  }

  const object = fc.tuple(fc.tuple(...values), extras).map(([declared, extra]) => {
    const entries: Array<[string, JsonValue]> = [];
    declared.forEach((value, i) => {
      if (value !== undefined) entries.push([keys[i] as string, value]);
    });
    return jsonObject([...entries, ...extra]);
  });
  if (shape.minProperties > 0 || shape.maxProperties !== undefined) {
    const counted = (o: JsonValue): boolean => {
      const n = Object.keys(o as object).length;
      return n >= shape.minProperties && n <= (shape.maxProperties ?? Infinity);
    };
    return passing(object as fc.Arbitrary<JsonValue>, counted, 'an object with minProperties/maxProperties');
  }
  return object;
}
