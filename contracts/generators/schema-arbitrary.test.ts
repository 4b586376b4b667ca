import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadDocument, type Operation } from '../../src/core/openapi/load-document.js';
import { isJsonObject, toJsonText, type JsonValue } from './json-value.js';
import { prismValidationErrors } from './prism-validation.js';
import { UNIT } from './arbitraries/string.js';
import {
  arbitraryFromSchema,
  codePointLength,
  describeSchema,
  INT32,
  INT64,
  SchemaError,
  withoutPrismInt64Bounds,
  type JsonSchema,
} from './schema-arbitrary.js';

const EMOJI = /\p{Extended_Pictographic}/u;

function jsonBodySchema(operation: Operation): JsonSchema {
  const schema = operation.request?.body?.contents?.find((c) => c.mediaType === 'application/json')?.schema;
  if (schema === undefined) throw new Error('no JSON body');
  return schema;
}

/** What a server sees: the exact text parsed back with JSON.parse. */
function onTheWire(value: JsonValue): unknown {
  return JSON.parse(toJsonText(value));
}

let newPlant: JsonSchema;

beforeAll(async () => {
  const document = await loadDocument();
  const operation = document.operations.find((o) => o.iid === 'createPlant');
  if (operation === undefined) throw new Error('createPlant missing');
  newPlant = jsonBodySchema(operation);
});

describe('the bundled NewPlant schema', () => {
  it('the validator used by these tests does refuse bad bodies (it answers "valid" when it cannot compile)', () => {
    expect(prismValidationErrors({}, newPlant)).not.toEqual([]);
    expect(prismValidationErrors({ name: 'x', id: 1.5 }, newPlant)).not.toEqual([]);
    expect(prismValidationErrors({ name: 'x', id: 1 }, newPlant)).toEqual([]);
    // prism's own int64 bounds refuse 2^53; without them the author's schema accepts it.
    expect(prismValidationErrors({ name: 'x', id: 2 ** 53 }, newPlant)).toEqual([]);
  });

  it('every generated value passes prism-http validation and keeps int64 ids exact bigints in range', () => {
    const arbitrary = arbitraryFromSchema(newPlant);
    fc.assert(
      fc.property(arbitrary, (value) => {
        expect(prismValidationErrors(onTheWire(value), newPlant)).toEqual([]);
        if (!isJsonObject(value)) throw new Error('not an object');
        const id = value['id'];
        expect(typeof id).toBe('bigint');
        expect((id as bigint) >= INT64.min && (id as bigint) <= INT64.max).toBe(true);
        expect(typeof value['name']).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });

  it('leans on the values that break implementations (in 2,000 samples)', () => {
    const samples = fc.sample(arbitraryFromSchema(newPlant), { numRuns: 2000, seed: 42 }).filter(isJsonObject);
    const names = samples.map((s) => s['name'] as string);
    const ids = samples.map((s) => s['id'] as bigint);
    expect(names).toContain('');
    expect(names.some((n) => n.includes('\u0000'))).toBe(true);
    expect(names.some((n) => EMOJI.test(n))).toBe(true);
    expect(names.some((n) => /[\u0590-\u05ff\u0600-\u06ff]/.test(n))).toBe(true);
    expect(names.some((n) => /\p{M}/u.test(n))).toBe(true);
    expect(names.some((n) => n.length > 0 && n.trim() === '')).toBe(true);
    expect(names.some((n) => n.includes('"') && n.includes('\\'))).toBe(true);
    expect(names.some((n) => codePointLength(n) >= 1000)).toBe(true);
    for (const edge of [9007199254740993n, 9007199254740992n, 9007199254740991n, INT64.min, INT64.max, 0n, -1n, 2n ** 31n]) {
      expect(ids, `id ${edge}`).toContain(edge);
    }
    expect(ids.some((id) => id < 0n)).toBe(true);
    expect(samples.some((s) => !('tag' in s))).toBe(true);
    expect(samples.some((s) => 'tag' in s)).toBe(true);
    // Extra properties: the document allows them, so they are sent, __proto__ among them as an own key.
    expect(samples.some((s) => Object.keys(s).length > 3)).toBe(true);
    expect(samples.some((s) => Object.keys(s).includes('__proto__'))).toBe(true);
  });

  it('extraProperties: false sends only declared properties', () => {
    fc.assert(
      fc.property(arbitraryFromSchema(newPlant, { extraProperties: false }), (value) => {
        expect(Object.keys(value as object).every((k) => ['name', 'tag', 'id'].includes(k))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('shrinks a failure on "name contains an emoji" to a tiny counterexample', () => {
    const details = fc.check(
      fc.property(arbitraryFromSchema(newPlant), (value) => !EMOJI.test((value as { name: string }).name)),
      { numRuns: 2000, seed: 7 },
    );
    expect(details.failed).toBe(true);
    const [counterexample] = details.counterexample ?? [];
    const plant = counterexample as { name: string; id: bigint; tag?: string };
    expect(EMOJI.test(plant.name)).toBe(true);
    expect(codePointLength(plant.name)).toBeLessThanOrEqual(2);
    // The rest shrinks away too: optional tag and extras gone, id down to 0.
    expect(Object.keys(plant)).toEqual(['name', 'id']);
    expect(plant.id).toBe(0n);
  });

  it('describeSchema sees through allOf', () => {
    const facts = describeSchema(newPlant);
    expect(facts.types).toEqual(new Set(['object']));
    expect([...facts.required].sort()).toEqual(['id', 'name']);
    expect([...facts.properties.keys()]).toEqual(['name', 'tag', 'id']);
    const id = describeSchema(facts.properties.get('id') as JsonSchema);
    expect(id.integerFormat).toBe('int64');
    expect(id.integerRange).toEqual({ min: INT64.min, max: INT64.max });
    expect(id.types).toEqual(new Set(['integer']));
    expect(facts.forbidsKey('anything')).toBe(false);
  });
});

describe('a tighter schema tightens generation', () => {
  const all = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => void, numRuns = 500): void =>
    fc.assert(
      fc.property(arbitrary, (v) => void check(v)),
      { numRuns },
    );

  it('string maxLength + pattern', () => {
    const schema: JsonSchema = { type: 'string', maxLength: 3, pattern: '^[a-z]+$' };
    const seen = new Set<string>();
    all(arbitraryFromSchema(schema), (v) => {
      expect(typeof v).toBe('string');
      expect(v as string).toMatch(/^[a-z]{1,3}$/);
      seen.add(v as string);
    });
    expect(seen.size).toBeGreaterThan(20);
  });

  it('minLength/maxLength count code points, as ajv does', () => {
    const schema: JsonSchema = { type: 'string', minLength: 2, maxLength: 4 };
    all(arbitraryFromSchema(schema), (v) => {
      expect(codePointLength(v as string)).toBeGreaterThanOrEqual(2);
      expect(codePointLength(v as string)).toBeLessThanOrEqual(4);
      expect(prismValidationErrors(v, schema)).toEqual([]);
    });
  });

  it('enum and const', () => {
    const values = new Set<JsonValue>();
    all(arbitraryFromSchema({ type: 'string', enum: ['fern', 'cactus', 'moss', 3] }), (v) => void values.add(v));
    expect(values).toEqual(new Set(['fern', 'cactus', 'moss']));
    all(arbitraryFromSchema({ const: 'only' }), (v) => expect(v).toBe('only'));
    all(arbitraryFromSchema({ type: 'integer', format: 'int64', enum: [1, 2] }), (v) => expect([1n, 2n]).toContain(v));
  });

  it('int64 with an author-written maximum of 10 (through prism) never exceeds 10 but still reaches the int64 minimum', async () => {
    const document = await loadDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/x': {
          post: {
            requestBody: {
              content: { 'application/json': { schema: { type: 'integer', format: 'int64', maximum: 10 } } },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    const schema = jsonBodySchema(document.operations[0] as Operation);
    // prism wrote its own minimum in, and recorded that the author wrote only the maximum.
    expect(schema.minimum).toBe(-9007199254740991);
    expect(schema['x-stoplight']?.explicitProperties).toContain('maximum');
    const samples = fc.sample(arbitraryFromSchema(schema), { numRuns: 2000, seed: 3 });
    expect(samples.every((v) => typeof v === 'bigint' && v <= 10n && v >= INT64.min)).toBe(true);
    expect(samples).toContain(INT64.min);
    expect(samples).toContain(10n);
    expect(samples).toContain(-9007199254740993n);
  });

  it('prism-invented int64 bounds are ignored, author-written ones honoured', () => {
    const invented: JsonSchema = {
      type: 'integer',
      format: 'int64',
      minimum: -9007199254740991,
      maximum: 9007199254740991,
      'x-stoplight': { explicitProperties: ['type', 'format'] },
    };
    const samples = fc.sample(arbitraryFromSchema(invented), { numRuns: 1000, seed: 1 });
    expect(samples).toContain(INT64.max);
    const written: JsonSchema = { ...invented, 'x-stoplight': { explicitProperties: ['type', 'format', 'minimum', 'maximum'] } };
    all(arbitraryFromSchema(written), (v) => expect((v as bigint) <= 9007199254740991n && (v as bigint) >= -9007199254740991n).toBe(true));
    // The copy for validators drops only the invented bounds.
    expect(withoutPrismInt64Bounds(invented)).not.toHaveProperty('maximum');
    expect(withoutPrismInt64Bounds(written)).toHaveProperty('maximum', 9007199254740991);
  });

  it('integers without int64 stay JS-safe numbers; int32 stays in its range', () => {
    const plain = fc.sample(arbitraryFromSchema({ type: 'integer' }), { numRuns: 1000, seed: 5 });
    expect(plain.every((v) => typeof v === 'number' && Number.isSafeInteger(v))).toBe(true);
    expect(plain).toContain(Number.MAX_SAFE_INTEGER);
    const int32 = fc.sample(arbitraryFromSchema({ type: 'integer', format: 'int32' }), { numRuns: 1000, seed: 5 });
    expect(int32.every((v) => typeof v === 'number' && v >= INT32.min && v <= INT32.max)).toBe(true);
    expect(int32).toContain(INT32.max);
    expect(int32).toContain(INT32.min);
  });

  it('exclusive bounds in both the draft-4 boolean and the numeric form, and multipleOf', () => {
    all(arbitraryFromSchema({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true }), (v) => {
      expect(v as number).toBeGreaterThan(0);
      expect(v as number).toBeLessThan(5);
    });
    all(arbitraryFromSchema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }), (v) => {
      expect(v as number).toBeGreaterThan(0);
      expect(v as number).toBeLessThan(1);
    });
    all(arbitraryFromSchema({ type: 'integer', format: 'int64', multipleOf: 1000, minimum: 0 }), (v) => {
      expect((v as bigint) % 1000n).toBe(0n);
      expect((v as bigint) >= 0n).toBe(true);
    });
    const halves: JsonSchema = { type: 'number', multipleOf: 0.5, minimum: -3, maximum: 3 };
    all(arbitraryFromSchema(halves), (v) => expect(prismValidationErrors(v, halves)).toEqual([]));
  });

  it('additionalProperties false: never an extra key; a schema: extras of that schema', () => {
    all(arbitraryFromSchema({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }), (v) => {
      expect(Object.keys(v as object).every((k) => k === 'a')).toBe(true);
    });
    const map: JsonSchema = { type: 'object', additionalProperties: { type: 'integer', minimum: 0, maximum: 9 } };
    const samples = fc.sample(arbitraryFromSchema(map, { extraProperties: false }), { numRuns: 300, seed: 2 });
    expect(samples.some((s) => Object.keys(s as object).length > 0)).toBe(true);
    for (const s of samples) expect(prismValidationErrors(onTheWire(s), map)).toEqual([]);
  });

  it('allOf with additionalProperties false keeps only what every branch allows', () => {
    const schema: JsonSchema = {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, additionalProperties: false },
        { properties: { b: { minimum: 5 }, c: { type: 'boolean' } }, required: ['b'] },
      ],
    };
    all(arbitraryFromSchema(schema), (v) => {
      expect(prismValidationErrors(onTheWire(v), schema)).toEqual([]);
      expect(v).not.toHaveProperty('c');
      expect((v as { b: number }).b).toBeGreaterThanOrEqual(5);
    });
    expect(() => arbitraryFromSchema({ allOf: [{ additionalProperties: false }, { required: ['x'] }] })).toThrow(SchemaError);
  });
});

describe('keyword coverage, judged by prism-http', () => {
  const cases: ReadonlyArray<readonly [string, JsonSchema]> = [
    ['type array with null', { type: ['string', 'null'], minLength: 1 }],
    ['nullable (OpenAPI 3.0)', { type: 'integer', nullable: true, minimum: 3 }],
    ['boolean', { type: 'boolean' }],
    ['number bounds', { type: 'number', minimum: -2.5, maximum: 1e10 }],
    ['array items', { type: 'array', items: { type: 'string', maxLength: 2 }, minItems: 2, maxItems: 4 }],
    ['unique items', { type: 'array', items: { type: 'integer', minimum: 0, maximum: 5 }, uniqueItems: true, maxItems: 6 }],
    ['tuple items', { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }],
    [
      'oneOf',
      {
        oneOf: [
          { type: 'string', maxLength: 0 },
          { type: 'integer', minimum: 1 },
        ],
      },
    ],
    ['anyOf inside an object', { type: 'object', required: ['v'], properties: { v: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } } }],
    [
      'oneOf with shared part',
      {
        type: 'object',
        required: ['kind'],
        oneOf: [{ properties: { kind: { const: 'a' }, a: { type: 'string' } }, required: ['a'] }, { properties: { kind: { const: 'b' } } }],
      },
    ],
    ['untyped value', {}],
    ['untyped object keywords', { properties: { x: { type: 'integer' } }, required: ['x'] }],
    ['minProperties / maxProperties', { type: 'object', minProperties: 1, maxProperties: 2 }],
    ['patternProperties', { type: 'object', patternProperties: { '^x-': { type: 'integer' } }, properties: { 'x-a': { minimum: 0 } }, required: ['x-a'] }],
    ['format date-time', { type: 'string', format: 'date-time' }],
    ['format date', { type: 'string', format: 'date' }],
    ['format time', { type: 'string', format: 'time' }],
    ['format email', { type: 'string', format: 'email' }],
    ['format uuid', { type: 'string', format: 'uuid' }],
    ['format uri', { type: 'string', format: 'uri' }],
    ['format uri-reference', { type: 'string', format: 'uri-reference' }],
    ['format uri within a length', { type: 'string', format: 'uri', maxLength: 40 }],
    ['format ipv4', { type: 'string', format: 'ipv4' }],
    ['format ipv6', { type: 'string', format: 'ipv6' }],
    ['format hostname', { type: 'string', format: 'hostname' }],
    ['format byte', { type: 'string', format: 'byte' }],
    ['format duration', { type: 'string', format: 'duration' }],
    ['unknown format left alone', { type: 'string', format: 'plant-name' }],
    ['unicode pattern', { type: 'string', pattern: '^\\p{L}{2,5}$' }],
    ['int32 format with type number', { type: 'number', format: 'int32' }],
    ['pattern fast-check cannot read (lookahead)', { type: 'string', pattern: '^(?=.*[0-9]).{1,6}$' }],
    ['format with length bounds', { type: 'string', format: 'email', maxLength: 30 }],
  ];

  it.each(cases)('%s', (_label, schema) => {
    fc.assert(
      fc.property(arbitraryFromSchema(schema), (value) => {
        expect(prismValidationErrors(onTheWire(value), schema, '')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('$ref and recursion', () => {
  const root = {
    components: {
      schemas: {
        Tree: {
          type: 'object',
          required: ['label'],
          properties: { label: { type: 'string', maxLength: 3 }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
          additionalProperties: false,
        },
        'a/b~c': { type: 'integer', minimum: 7, maximum: 7 },
      },
    },
  };

  const depthOf = (value: JsonValue): number =>
    Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : isJsonObject(value) ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it('resolves #/ pointers in options.root, escapes included', () => {
    all(arbitraryFromSchema({ $ref: '#/components/schemas/a~1b~0c' }, { root }), (v) => expect(v).toBe(7));
  });

  it('guards cycles with maxDepth and still produces valid trees', () => {
    const samples = fc.sample(arbitraryFromSchema({ $ref: '#/components/schemas/Tree' }, { root, maxDepth: 4 }), { numRuns: 300, seed: 9 });
    expect(Math.max(...samples.map(depthOf))).toBeGreaterThan(2);
    expect(Math.max(...samples.map(depthOf))).toBeLessThanOrEqual(5);
    const tree = {
      ...root.components.schemas.Tree,
      properties: { ...root.components.schemas.Tree.properties, children: { type: 'array', items: { $ref: '#' } } },
    };
    for (const s of samples) expect(prismValidationErrors(s, tree as JsonSchema, '')).toEqual([]);
  });

  it('refuses what it cannot generate, with a SchemaError', () => {
    expect(() => arbitraryFromSchema({ $ref: '#/nowhere' }, { root })).toThrow(SchemaError);
    expect(() => arbitraryFromSchema({ $ref: 'other.yaml#/x' }, { root })).toThrow(SchemaError);
    expect(() => arbitraryFromSchema({ type: 'string', minLength: 3, maxLength: 2 })).toThrow(SchemaError);
    expect(() => arbitraryFromSchema({ type: 'string', enum: [1, 2] })).toThrow(SchemaError);
    expect(() => arbitraryFromSchema(false)).toThrow(SchemaError);
    expect(() => arbitraryFromSchema({ allOf: [{ type: 'string' }, { type: 'integer' }] })).toThrow(SchemaError);
    // Filters that could never pass are refused at once instead of hanging the run.
    expect(() => arbitraryFromSchema({ type: 'string', format: 'uuid', maxLength: 5 })).toThrow(SchemaError);
    expect(() => arbitraryFromSchema({ type: 'string', pattern: '^(?=x)y$' })).toThrow(SchemaError);
  });

  function all<T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => void): void {
    fc.assert(
      fc.property(arbitrary, (v) => void check(v)),
      { numRuns: 200 },
    );
  }
});

describe('the string unit', () => {
  it('is one code point, never a lone surrogate, and every code point maps back (so strings shrink without context)', () => {
    for (const unit of fc.sample(UNIT, 3000)) {
      expect([...unit]).toHaveLength(1);
      expect(encodeURIComponent(unit)).not.toBe(''); // throws on a lone surrogate
    }
    for (const code of [0, 0x1f, 0x20, 0x7e, 0x7f, 0xe9, 0xd7ff, 0xe000, 0xfffe, 0x1f600, 0x10ffff]) {
      expect(UNIT.canShrinkWithoutContext(String.fromCodePoint(code)), code.toString(16)).toBe(true);
    }
    expect(UNIT.canShrinkWithoutContext('\ud800')).toBe(false);
    expect(UNIT.canShrinkWithoutContext('ab')).toBe(false);
  });
});
