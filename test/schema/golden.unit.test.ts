/**
 * The golden table of the one schema reader (src/core/schema/): tricky schemas, each with what
 * every reading says of it: its types (typesOf), its one type (typeOf, what classifiers read),
 * the type a made value takes (firstTypeOf), its properties by direction, its small valid value
 * (a request's, fixed) and the identifier type it gives. Before src/core/schema/ the six readers
 * disagreed on several rows: `{properties}` was object to three and untyped to the handlers, `{}`
 * was a string to the refusal bodies, `[string, integer]` was a string to three and untyped to
 * inference, and a restated allOf property kept its first statement in the handlers.
 */
import { describe, expect, it } from 'vitest';
import { identifierType, keyOfText, keyOfValue, keyText, valueOfKey } from '../../src/core/schema/identifier.js';
import { normalise, resolverIn } from '../../src/core/schema/normalise.js';
import { pointerSegments, resolvePointer } from '../../src/core/schema/pointer.js';
import { arrayItems, objectShape } from '../../src/core/schema/properties.js';
import { firstTypeOf, typeOf, typesOf } from '../../src/core/schema/types.js';
import { minimalValue } from '../../src/core/schema/value.js';

const ROOT = {
  components: {
    schemas: {
      'a/b': { type: 'integer', format: 'int32' },
      'a%2Fb': { type: 'boolean' },
      'til~de': { type: 'string', format: 'uuid' },
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } } },
      Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
    },
  },
};
const resolve = resolverIn(ROOT);

interface Row {
  readonly name: string;
  readonly schema: unknown;
  readonly types: readonly string[] | undefined;
  readonly type: string | undefined;
  readonly first: string | undefined;
  /** Property names a request carries, and an answer holds (undefined: same as the request's). */
  readonly request?: readonly string[];
  readonly response?: readonly string[];
  readonly required?: readonly string[];
  readonly value: unknown;
  readonly identifier?: unknown;
}

const ROWS: readonly Row[] = [
  {
    name: 'untyped, with properties',
    schema: { properties: { a: { type: 'string' } } },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['a'],
    value: {},
  },
  {
    name: 'empty schema: any value',
    schema: {},
    types: undefined,
    type: undefined,
    first: undefined,
    request: [],
    value: null,
    identifier: { kind: 'string' },
  },
  { name: 'true schema: any value', schema: true, types: undefined, type: undefined, first: undefined, value: null },
  { name: 'required only', schema: { required: ['x'] }, types: ['object'], type: 'object', first: 'object', request: [], required: ['x'], value: { x: null } },
  { name: 'items only', schema: { items: { type: 'integer' } }, types: ['array'], type: 'array', first: 'array', value: [] },
  {
    name: 'type list [string, integer]',
    schema: { type: ['string', 'integer'] },
    types: ['string', 'integer'],
    type: undefined,
    first: 'string',
    value: 'text',
    identifier: { kind: 'string' },
  },
  { name: 'type list [integer, string]', schema: { type: ['integer', 'string'] }, types: ['integer', 'string'], type: undefined, first: 'integer', value: 1 },
  {
    name: 'type list [integer, null]',
    schema: { type: ['integer', 'null'], format: 'int32' },
    types: ['integer', 'null'],
    type: 'integer',
    first: 'integer',
    value: 1,
    identifier: { kind: 'integer', minimum: -(2n ** 31n), maximum: 2n ** 31n - 1n },
  },
  { name: 'type list [null]', schema: { type: ['null'] }, types: ['null'], type: 'null', first: 'null', value: null },
  { name: 'integer and number', schema: { type: ['integer', 'number'] }, types: ['integer', 'number'], type: 'number', first: 'integer', value: 1 },
  { name: '3.0 nullable', schema: { type: 'string', nullable: true }, types: ['string', 'null'], type: 'string', first: 'string', value: 'text' },
  {
    name: 'nullable beside an allOf type',
    schema: { nullable: true, allOf: [{ type: 'boolean' }] },
    types: ['boolean', 'null'],
    type: 'boolean',
    first: 'boolean',
    value: false,
  },
  {
    name: 'allOf types intersect',
    schema: { allOf: [{ type: ['string', 'integer'] }, { type: 'integer' }] },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 1,
  },
  {
    name: 'allOf integer within number',
    schema: { allOf: [{ type: 'number' }, { type: 'integer', minimum: 3 }] },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 3,
  },
  {
    name: 'oneOf: the union of the branches',
    schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    types: ['string', 'integer'],
    type: undefined,
    first: 'string',
    value: 'text',
  },
  {
    name: 'anyOf with an untyped branch: any',
    schema: { anyOf: [{ type: 'string' }, {}] },
    types: undefined,
    type: undefined,
    first: undefined,
    value: 'text',
  },
  {
    name: 'restated allOf: a later branch marks id readOnly',
    schema: {
      allOf: [
        { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
        { properties: { id: { readOnly: true } } },
      ],
    },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['name'],
    response: ['id', 'name'],
    required: ['name'],
    value: { name: 'text' },
  },
  {
    name: 'restated allOf: a later statement of a property merges over the earlier',
    schema: { allOf: [{ properties: { size: { type: 'integer', minimum: 1 } } }, { properties: { size: { minimum: 7, default: 9 } } }] },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['size'],
    value: {},
  },
  {
    name: 'writeOnly: carried by a request, never held by an answer',
    schema: {
      type: 'object',
      required: ['password', 'name'],
      properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true, minLength: 8 } },
    },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['name', 'password'],
    response: ['name'],
    required: ['password', 'name'],
    value: { password: 'textxxxx', name: 'text' },
  },
  {
    name: 'a $ref to a key with a slash (~1)',
    schema: { $ref: '#/components/schemas/a~1b' },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 1,
    identifier: { kind: 'integer', minimum: -(2n ** 31n), maximum: 2n ** 31n - 1n },
  },
  {
    name: 'a $ref with %2F: one segment, a slash in the key',
    schema: { $ref: '#/components/schemas/a%2Fb' },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 1,
  },
  {
    name: 'a $ref with %252F: the key with a literal %2F',
    schema: { $ref: '#/components/schemas/a%252Fb' },
    types: ['boolean'],
    type: 'boolean',
    first: 'boolean',
    value: false,
  },
  {
    name: 'a $ref with ~0 (a tilde)',
    schema: { $ref: '#/components/schemas/til~0de' },
    types: ['string'],
    type: 'string',
    first: 'string',
    value: '00000000-0000-4000-8000-000000000000',
    identifier: { kind: 'uuid' },
  },
  {
    name: 'a $ref beside allOf: the target first',
    schema: { $ref: '#/components/schemas/Base', allOf: [{ properties: { tag: { type: 'string' } } }] },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['id', 'name', 'tag'],
    required: ['id'],
    value: { id: 1 },
  },
  {
    name: 'a recursive $ref stays, open',
    schema: { $ref: '#/components/schemas/Node' },
    types: ['object'],
    type: 'object',
    first: 'object',
    request: ['next'],
    value: {},
  },
  {
    name: 'an unresolvable $ref: any value',
    schema: { $ref: '#/components/schemas/Missing' },
    types: undefined,
    type: undefined,
    first: undefined,
    request: [],
    value: null,
  },
  {
    name: 'const before enum before default',
    schema: { type: 'string', default: 'd', enum: ['e', 'c'], const: 'c' },
    types: ['string'],
    type: 'string',
    first: 'string',
    value: 'c',
  },
  {
    name: 'enum before default before example',
    schema: { type: 'integer', default: 4, enum: [5], example: 6 },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 5,
  },
  {
    name: 'a number inside exclusive bounds and onto multipleOf',
    schema: { type: 'integer', exclusiveMinimum: 10, multipleOf: 4 },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 12,
  },
  {
    name: 'an array of minItems',
    schema: { type: 'array', minItems: 2, items: { type: 'string', format: 'date' } },
    types: ['array'],
    type: 'array',
    first: 'array',
    value: ['2024-01-01', '2024-01-01'],
  },
  {
    name: 'a uuid identifier',
    schema: { type: 'string', format: 'uuid' },
    types: ['string'],
    type: 'string',
    first: 'string',
    value: '00000000-0000-4000-8000-000000000000',
    identifier: { kind: 'uuid' },
  },
  {
    name: 'an int64 identifier narrowed by its bounds',
    schema: { type: 'integer', format: 'int64', minimum: 1 },
    types: ['integer'],
    type: 'integer',
    first: 'integer',
    value: 1,
    identifier: { kind: 'integer', minimum: 1n, maximum: 2n ** 63n - 1n },
  },
];

describe('the golden table of the one schema reader', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const options = { resolve };
      expect(typesOf(row.schema, options)).toEqual(row.types);
      expect(typeOf(row.schema, options)).toEqual(row.type);
      expect(firstTypeOf(row.schema, options)).toEqual(row.first);
      if (row.request !== undefined) {
        expect([...objectShape(row.schema, { ...options, direction: 'request' }).properties.keys()]).toEqual(row.request);
        expect([...objectShape(row.schema, { ...options, direction: 'response' }).properties.keys()]).toEqual(row.response ?? row.request);
      }
      if (row.required !== undefined) expect([...objectShape(row.schema, { ...options, direction: 'request' }).required]).toEqual(row.required);
      expect(minimalValue(row.schema, { ...options, direction: 'request' })).toEqual(row.value);
      if (row.identifier !== undefined) expect(identifierType(normalise(row.schema, options))).toEqual(row.identifier);
    });
  }

  it('reads a restated property as one schema: both statements, the later over the earlier, flags kept', () => {
    const schema = ROWS.find((row) => row.name.startsWith('restated allOf: a later statement'))?.schema;
    expect(objectShape(schema).properties.get('size')).toEqual({ type: 'integer', minimum: 7, default: 9 });
    expect(objectShape(ROWS[16]?.schema).readOnly).toEqual(new Set(['id']));
    expect(objectShape(ROWS[18]?.schema).writeOnly).toEqual(new Set(['password']));
  });

  it('walks an array to its items, and an open object is open', () => {
    expect(arrayItems({ type: ['array', 'null'], items: { allOf: [{ type: 'string' }, { maxLength: 3 }] } })).toEqual({ type: 'string', maxLength: 3 });
    expect(arrayItems({ type: ['array', 'object'] })).toBeUndefined();
    expect(objectShape({ type: 'object', properties: { a: {} }, additionalProperties: {} }).open).toBe(true);
    expect(objectShape({ type: 'object', properties: { a: {} } }).open).toBe(false);
    expect(objectShape({ type: 'object', properties: { a: {} }, oneOf: [{}] }).open).toBe(true);
    expect(objectShape({ type: 'object' }).open).toBe(true);
  });
});

describe('the one pointer rule (RFC 6901 in a URI fragment, each segment decoded on its own)', () => {
  it.each([
    ['#', []],
    ['#/a~1b', ['a/b']],
    ['#/a%2Fb', ['a/b']],
    ['#/a%252Fb', ['a%2Fb']],
    ['#/~01', ['~1']],
    ['#/paths/~1pets~1%7Bid%7D', ['paths', '/pets/{id}']],
    ['#/bad%zz/%41', ['bad%zz', 'A']],
    ['#/', ['']],
  ])('%s names %j', (ref, segments) => {
    expect(pointerSegments(ref)).toEqual(segments);
  });

  it('refuses what is not a local pointer, and finds nothing where nothing is', () => {
    expect(pointerSegments('other.yaml#/a')).toBeUndefined();
    expect(pointerSegments('#a')).toBeUndefined();
    expect(resolvePointer(ROOT, '#/components/schemas/nothing')).toBeUndefined();
    expect(resolvePointer({ list: [{ x: 1 }] }, '#/list/0/x')).toBe(1);
    expect(resolvePointer({}, '#/__proto__')).toBeUndefined();
  });
});

describe('the one identifier reader (text ↔ key, exact)', () => {
  const uuid = { property: 'id', type: { kind: 'uuid' } } as const;
  const int64 = { property: 'id', type: { kind: 'integer', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n } } as const;
  const text = { property: 'id', type: { kind: 'string' } } as const;

  it('keeps a uuid in lower case, from a path and from a value alike, and refuses a non-uuid', () => {
    expect(keyOfText(uuid, 'ABCDEF00-0000-4000-8000-00000000000A')).toEqual({ ok: true, key: 'abcdef00-0000-4000-8000-00000000000a' });
    expect(keyOfValue(uuid, 'ABCDEF00-0000-4000-8000-00000000000A')).toEqual({ ok: true, key: 'abcdef00-0000-4000-8000-00000000000a' });
    expect(keyOfText(uuid, 'nope').ok).toBe(false);
    expect(keyOfValue(uuid, 7).ok).toBe(false);
  });

  it('reads integers exactly: canonical text only, a value a number holds exactly or a bigint, never digits in a string', () => {
    expect(keyOfText(int64, '9007199254740993')).toEqual({ ok: true, key: 9007199254740993n });
    for (const bad of ['007', '+7', '-0', '1e3', '9223372036854775808', '', ' 1']) expect(keyOfText(int64, bad).ok).toBe(false);
    expect(keyOfValue(int64, 5)).toEqual({ ok: true, key: 5n });
    expect(keyOfValue(int64, 2 ** 60).ok).toBe(false);
    expect(keyOfValue(int64, 2n ** 60n)).toEqual({ ok: true, key: 2n ** 60n });
    expect(keyOfValue(int64, '5').ok).toBe(false);
  });

  it('takes a string as written, a whole number as its digits, and gives a key back as an item and a message hold it', () => {
    expect(keyOfText(text, 'Mixed Case')).toEqual({ ok: true, key: 'Mixed Case' });
    expect(keyOfValue(text, 42)).toEqual({ ok: true, key: '42' });
    expect(keyOfText(text, '').ok).toBe(false);
    expect(keyOfValue(text, '')).toEqual({ ok: true, key: '' });
    expect(valueOfKey(5n)).toBe(5);
    expect(valueOfKey(2n ** 53n)).toBe(2n ** 53n);
    expect(keyText(5n)).toBe('5');
    expect(keyText('a"b')).toBe('"a\\"b"');
  });
});
