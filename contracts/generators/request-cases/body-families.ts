/**
 * Body families: a JSON body that breaks the schema in one way, either one property wrong (missing,
 * wrong type, out of range, outside its enum, length or pattern, undeclared) or the whole value of
 * a type the schema does not allow.
 */
import fc from 'fast-check';
import { objectShape } from '../../../src/core/schema/properties.js';
import { isJsonObject, jsonEquals, jsonObject, withKey, withoutKey, type JsonValue } from '../json-value.js';
import { describeSchema, INT32, INT64, type SchemaFacts, type SchemaType } from '../schema-arbitrary.js';
import { isJsonPatchDocument } from '../../../src/core/schema/json-patch.js';
import { onObject, payloadFamily, type Base, type Body } from './base.js';
import type { CaseFamily } from './types.js';

const WRONG_VALUES: Readonly<Record<'string' | 'number' | 'boolean' | 'array' | 'object', fc.Arbitrary<JsonValue>>> = {
  // "1" and "true" are what lenient servers coerce.
  string: fc.oneof(fc.constantFrom('1', '', 'true', 'null', '9007199254740993'), fc.string()),
  number: fc.oneof(
    fc.constantFrom(0, 1, -1, 1.5),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : v)),
  ),
  boolean: fc.boolean(),
  array: fc.constantFrom<JsonValue[]>([], [1], ['a'], [null]),
  object: fc.constantFrom<JsonValue>(jsonObject([]), jsonObject([['value', 1]])),
};

function allows(types: ReadonlySet<SchemaType>, type: SchemaType): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

export function propertyFamilies(base: Base, facts: SchemaFacts): CaseFamily[] {
  const body = base.body as Body;
  // Each family changes one property of an object payload and draws again on any other: where the
  // payload is never an object (Box's JSON Patch, an array with a stray `required`) it drew for ever.
  if ((facts.types !== undefined && !facts.types.has('object')) || isJsonPatchDocument(body.schema, body.mediaType)) return [];
  const families: CaseFamily[] = [];
  // A readOnly property is not the client's to send (OpenAPI): a target may ignore whatever it holds,
  // and its `required` binds answers only. Breaking it breaks nothing a target must refuse.
  const { readOnly } = objectShape(body.schema);
  for (const key of facts.required) {
    if (readOnly.has(key)) continue;
    families.push(
      payloadFamily(
        base,
        body,
        `body: missing required property '${key}'`,
        fc.constant(null),
        onObject((o) => withoutKey(o, key)),
      ),
    );
  }
  for (const [key, schema] of facts.properties) {
    if (readOnly.has(key)) continue;
    const property = describeSchema(schema);
    const set = (breaks: string, values: fc.Arbitrary<JsonValue>): void => {
      families.push(
        payloadFamily(base, body, `body: property '${key}' ${breaks}`, values, (payload, value) =>
          isJsonObject(payload) ? withKey(payload, key, value) : undefined,
        ),
      );
    };
    const types = property.types;
    const enumValues = property.enumValues;
    const outsideEnum = (v: JsonValue): boolean => enumValues === undefined || !enumValues.some((e) => jsonEquals(e, v));
    if (types !== undefined) {
      for (const wrong of ['string', 'number', 'boolean', 'array', 'object'] as const) {
        if (allows(types, wrong) || (wrong === 'number' && types.has('integer'))) continue;
        set(`has the wrong type (${wrong} instead of ${[...types].join(' or ')})`, WRONG_VALUES[wrong]);
      }
    }
    if ((types !== undefined && !types.has('null')) || (types === undefined && enumValues !== undefined && outsideEnum(null))) {
      set('is null', fc.constant(null));
    }
    if (types !== undefined && types.has('integer') && !types.has('number')) {
      // A fresh integer part each time: a lenient target that stores 1.5 as 1 would refuse the next
      // 1.5 as a duplicate, and a stateful target would pass after the first run.
      set(
        'is not an integer',
        fc
          .tuple(fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom(0.5, 0.25, 0.75), fc.boolean())
          .map(([whole, part, negative]) => (negative ? -1 : 1) * (whole + part)),
      );
    }
    if (types !== undefined && allows(types, 'integer')) families.push(...rangeFamilies(base, body, key, property));
    if (enumValues !== undefined) {
      const candidates = enumValues.every((v) => typeof v === 'number' || typeof v === 'bigint')
        ? fc.integer().map((v): JsonValue => v)
        : fc.oneof(fc.constantFrom('not-in-enum', '', 'UNKNOWN'), fc.string());
      set('is not one of its enum values', candidates.filter(outsideEnum));
    }
    if (property.minLength > 0 && (types === undefined || types.has('string'))) {
      set(`is shorter than minLength ${property.minLength}`, fc.string({ maxLength: property.minLength - 1 }));
    }
    if (property.maxLength !== undefined && (types === undefined || types.has('string'))) {
      const n = property.maxLength;
      set(`is longer than maxLength ${n}`, fc.string({ minLength: n + 1, maxLength: n + 16 }));
    }
    const [pattern] = property.patterns;
    if (pattern !== undefined && (types === undefined || types.has('string'))) {
      const misses = ['', ' ', '!', '\u0000', '0', 'Z Z', '🌱', 'a\nb', '-'].filter((s) => !pattern.test(s));
      if (misses.length > 0) set(`does not match its pattern ${pattern.source}`, fc.constantFrom(...misses));
    }
  }
  const undeclared = ['unexpected', 'extra', 'x-undeclared'].find((k) => !facts.properties.has(k) && facts.forbidsKey(k));
  if (undeclared !== undefined) {
    families.push(
      payloadFamily(
        base,
        body,
        `body: undeclared property '${undeclared}' (additionalProperties: false)`,
        fc.constantFrom<JsonValue>(true, 'surprise', 0),
        (payload, value) => (isJsonObject(payload) ? withKey(payload, undeclared, value) : undefined),
      ),
    );
  }
  return families;
}

/**
 * Just past int64, mostly fresh each time (steps of 4,096 above 2^63 are distinct doubles): a target
 * that rounds them would otherwise refuse every later one as a duplicate and pass on a second run.
 */
const INT64_ABOVE = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(INT64.max + 1n, 2n ** 64n, 10n ** 20n) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 40n }).map((k): JsonValue => INT64.max + k * 4096n) },
);
const INT64_BELOW = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(INT64.min - 1n, -(2n ** 64n), -(10n ** 20n)) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 40n }).map((k): JsonValue => INT64.min - k * 4096n) },
);

/** Integers just past what the schema allows: the int64/int32 range, then the author's own bounds. Written exactly. */
function rangeFamilies(base: Base, body: Body, key: string, property: SchemaFacts): CaseFamily[] {
  const families: CaseFamily[] = [];
  const set = (breaks: string, values: readonly JsonValue[] | fc.Arbitrary<JsonValue>): void => {
    const arbitrary = Array.isArray(values) ? fc.constantFrom(...(values as readonly JsonValue[])) : (values as fc.Arbitrary<JsonValue>);
    families.push(
      payloadFamily(base, body, `body: property '${key}' ${breaks}`, arbitrary, (payload, value) =>
        isJsonObject(payload) ? withKey(payload, key, value) : undefined,
      ),
    );
  };
  const { min, max } = property.integerRange;
  if (property.integerFormat === 'int64') {
    set('is above the int64 maximum', INT64_ABOVE);
    set('is below the int64 minimum', INT64_BELOW);
  } else if (property.integerFormat === 'int32') {
    set('is above the int32 maximum', [INT32.max + 1, 2 ** 32, 2 ** 53 - 1]);
    set('is below the int32 minimum', [INT32.min - 1, -(2 ** 32), -(2 ** 53 - 1)]);
  }
  const formatRange =
    property.integerFormat === 'int64' ? INT64 : property.integerFormat === 'int32' ? { min: BigInt(INT32.min), max: BigInt(INT32.max) } : undefined;
  // Bigint for int64 (checked exactly); a JS number elsewhere, only where that number is exact.
  const asValue = (v: bigint): JsonValue | undefined =>
    property.integerFormat === 'int64' ? v : v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : undefined;
  if (max !== undefined && max !== formatRange?.max) {
    const values = [max + 1n, max + 2n, max + 1000n].map(asValue).filter((v): v is JsonValue => v !== undefined);
    if (values.length > 0) set(`is above its maximum ${max}`, values);
  }
  if (min !== undefined && min !== formatRange?.min) {
    const values = [min - 1n, min - 2n, min - 1000n].map(asValue).filter((v): v is JsonValue => v !== undefined);
    if (values.length > 0) set(`is below its minimum ${min}`, values);
  }
  return families;
}

/** The whole body a JSON value of a type the schema does not allow. */
export function shapeFamilies(base: Base, facts: SchemaFacts): CaseFamily[] {
  const body = base.body as Body;
  const types = facts.types;
  if (types === undefined) return [];
  const objectOnly = types.size === 1 && types.has('object');
  const label = (what: string): string => (objectOnly ? `body: not an object (${what})` : `body: a JSON ${what}, which the schema does not allow`);
  const families: CaseFamily[] = [];
  const add = (type: SchemaType, what: string, values: fc.Arbitrary<JsonValue>): void => {
    if (!allows(types, type)) families.push(payloadFamily(base, body, label(what), values, (_payload, value) => value));
  };
  add(
    'array',
    'array',
    fc.oneof(
      fc.constant<JsonValue>([]),
      body.payload.map((p): JsonValue => [p]),
    ),
  );
  add('string', 'string', fc.constantFrom<JsonValue>('plant', '', '{}'));
  if (!allows(types, 'number')) add('integer', 'number', fc.constantFrom<JsonValue>(0, 1, -1, 1.5, 9007199254740993n));
  add('boolean', 'boolean', fc.constantFrom<JsonValue>(true, false));
  add('null', 'null', fc.constant(null));
  if (!types.has('object')) add('object', 'object', fc.constant(jsonObject([])));
  return families;
}
