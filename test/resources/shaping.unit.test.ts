/** The pure parts of the resource handlers: answer shaping, values made for required properties, merge patches, identifiers. */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/json/exact-json.js';
import { compileFill, valueMaker } from '../../src/handlers/resource/fill.js';
import { allocatedKey, keyFromPath, keyFromValue, valueOfKey } from '../../src/handlers/resource/identifier.js';
import { mergePatch } from '../../src/handlers/resource/merge.js';
import { singular } from '../../src/handlers/resource/parts.js';
import type { Schema } from '../../src/core/schema/normalise.js';
import { compileItemWriter, listShape, REMEMBERED_ITEMS, rememberingWriter, type ItemWriter } from '../../src/handlers/resource/shape.js';
import type { ItemFields } from '../../src/store/item-store.js';
import { createTable, insert, page } from '../../src/store/item-table.js';

/** A schema written in a test, typed as prism gives them. */
const schema = (value: object): Schema => value as Schema;

const INT64 = { kind: 'integer', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n } as const;

describe('compileItemWriter', () => {
  const plant = schema({ type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } } });

  it('keeps the declared properties in the document’s order and drops the others', () => {
    expect(compileItemWriter(plant)({ tag: 'aroid', id: 5, name: 'M' })).toBe('{"name":"M","tag":"aroid"}');
  });

  it('merges allOf branches and writes bigints digit for digit', () => {
    const newPlant = schema({ allOf: [plant, { type: 'object', properties: { id: { type: 'integer' } } }] });
    expect(compileItemWriter(newPlant)({ id: 9007199254740993n, name: 'M', extra: 1 })).toBe('{"name":"M","id":9007199254740993}');
  });

  it('keeps every property when the schema declares none, allows others explicitly or has alternatives', () => {
    const fields = { name: 'M', id: 2n ** 63n - 1n };
    const all = '{"name":"M","id":9223372036854775807}';
    expect(compileItemWriter(schema({ type: 'object' }))(fields)).toBe(all);
    expect(compileItemWriter(schema({ ...plant, additionalProperties: true }))(fields)).toBe(all);
    expect(compileItemWriter(schema({ oneOf: [plant] }))(fields)).toBe(all);
  });

  it('adds the echoed identifier last, only when the schema leaves it out', () => {
    expect(compileItemWriter(plant, { echo: 'id' })({ id: 7, name: 'M' })).toBe('{"name":"M","id":7}');
    expect(compileItemWriter(schema({ properties: { id: {}, name: {} } }), { echo: 'id' })({ name: 'M', id: 7 })).toBe('{"id":7,"name":"M"}');
  });
});

describe('listShape', () => {
  it('finds the array, or the wrapping object’s array property with its total and next', () => {
    expect(listShape(schema({ type: 'array', items: { type: 'string' } }))).toEqual({ itemSchema: { type: 'string' }, siblings: {}, otherRequired: [] });
    const wrapped = listShape(
      schema({
        type: 'object',
        required: ['data', 'page'],
        properties: {
          data: { type: 'array', items: {} },
          totalCount: { type: 'integer' },
          nextCursor: { type: 'string' },
          page: { type: 'integer', minimum: 1 },
        },
      }),
    );
    // The integer page beside them is the page this answer is (a sibling filled truthfully), not a made value.
    expect(wrapped).toMatchObject({
      arrayProperty: 'data',
      siblings: { count: ['totalCount'], next: ['nextCursor'], page: ['page'] },
      otherRequired: [],
    });
  });

  it('finds count and paging facts inside an object sibling (meta), and the container’s other required properties', () => {
    const meta = listShape(
      schema({
        type: 'object',
        required: ['data', 'meta'],
        properties: {
          data: { type: 'array', items: {} },
          meta: {
            type: 'object',
            required: ['total', 'per_page', 'current_page', 'path'],
            properties: { total: { type: 'integer' }, per_page: { type: 'integer' }, current_page: { type: 'integer' }, path: { type: 'string' } },
          },
        },
      }),
    );
    expect(meta).toMatchObject({
      arrayProperty: 'data',
      siblings: { count: ['meta', 'total'], limit: ['meta', 'per_page'], page: ['meta', 'current_page'] },
      otherRequired: [[['meta', 'path'], { type: 'string' }]],
    });
  });
});

describe('values made for required properties', () => {
  // One precedence with the inspector's example (core/schema/value.ts): a const is the only valid value, so it wins over a default.
  it('prefers const, enum, default, example, in that order', () => {
    expect(valueMaker(schema({ type: 'string', default: 'd', const: 'c', enum: ['e'], example: 'x' }))()).toBe('c');
    expect(valueMaker(schema({ type: 'string', const: 'c', enum: ['e'] }))()).toBe('c');
    expect(valueMaker(schema({ type: 'string', enum: ['e', 'f'], example: 'x' }))()).toBe('e');
    expect(valueMaker(schema({ type: 'string', example: 'x' }))()).toBe('x');
  });

  it('makes values inside the schema’s bounds and formats', () => {
    expect(valueMaker(schema({ type: 'integer', minimum: 5 }))()).toBe(5);
    expect(valueMaker(schema({ type: 'integer', exclusiveMaximum: -3 }))()).toBe(-4);
    expect(valueMaker(schema({ type: 'number', minimum: 2.5 }))()).toBe(2.5);
    expect(valueMaker(schema({ type: 'string', minLength: 10 }))()).toHaveLength(10);
    expect(valueMaker(schema({ type: 'string', maxLength: 2 }))()).toHaveLength(2);
    expect(Date.parse(valueMaker(schema({ type: 'string', format: 'date-time' }))() as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(valueMaker(schema({ type: 'string', format: 'uuid' }))()).toMatch(/^[0-9a-f-]{36}$/);
    expect(valueMaker(schema({ type: 'object', required: ['a'], properties: { a: { type: 'boolean' } } }))()).toEqual({ a: false });
  });

  it('fills only what is missing and leaves the fields as they were when nothing is', () => {
    const fill = compileFill(schema({ type: 'object', required: ['name', 'status'], properties: { status: { enum: ['new'] } } }));
    expect(fill({ name: 'M' })).toEqual({ name: 'M', status: 'new' });
    const complete = { name: 'M', status: 'old' };
    expect(fill(complete)).toBe(complete);
  });
});

describe('mergePatch (RFC 7396 appendix A)', () => {
  const cases: [JsonValue, JsonValue, JsonValue][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j patched with %j is %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('keeps bigints and a "__proto__" member as own data', () => {
    const patched = mergePatch({ id: 9007199254740993n }, JSON.parse('{"__proto__":{"x":1}}') as JsonValue) as Record<string, JsonValue>;
    expect(patched.id).toBe(9007199254740993n);
    expect(Object.hasOwn(patched, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
  });
});

describe('identifiers', () => {
  it('reads a path segment exactly by type', () => {
    expect(keyFromPath(INT64, '9007199254740993')).toBe(9007199254740993n);
    expect(keyFromPath(INT64, '-9223372036854775808')).toBe(-(2n ** 63n));
    for (const text of ['007', '+7', '-0', '1e3', '9223372036854775808', '', ' 1']) expect(keyFromPath(INT64, text)).toBeUndefined();
    expect(keyFromPath({ kind: 'integer', minimum: 1n, maximum: 10n }, '11')).toBeUndefined();
    expect(keyFromPath({ kind: 'uuid' }, 'ABCDEF00-0000-4000-8000-000000000000')).toBe('abcdef00-0000-4000-8000-000000000000');
    expect(keyFromPath({ kind: 'uuid' }, 'not-a-uuid')).toBeUndefined();
  });

  it('reads a body value, and gives a key back as an item holds it', () => {
    expect(keyFromValue(INT64, 5)).toBe(5n);
    expect(keyFromValue(INT64, 1.5)).toBeUndefined();
    expect(keyFromValue(INT64, '5')).toBeUndefined();
    expect(valueOfKey(5n)).toBe(5);
    expect(valueOfKey(9007199254740993n)).toBe(9007199254740993n);
  });

  it('allocates within the bounds, from the minimum when it is above 1', () => {
    expect(allocatedKey(INT64, 1n)).toBe(1n);
    expect(allocatedKey({ kind: 'integer', minimum: 100n, maximum: 101n }, 2n)).toBe(101n);
    expect(allocatedKey({ kind: 'integer', minimum: 100n, maximum: 101n }, 3n)).toBeUndefined();
    expect(allocatedKey({ kind: 'string' }, 12n)).toBe('12');
    expect(allocatedKey({ kind: 'uuid' }, 1n)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  });

  it('names the item in the singular', () => {
    expect(['plants', 'owners.pets', 'categories', 'boxes', 'status', 'sheep'].map((name) => singular({ name }))).toEqual([
      'plant',
      'pet',
      'category',
      'box',
      'status',
      'sheep',
    ]);
  });
});

describe('rememberingWriter (lists write a stored item once, while it is unchanged)', () => {
  const counted = () => {
    const seen: ItemFields[] = [];
    const write: ItemWriter = (fields) => {
      seen.push(fields);
      return JSON.stringify(fields);
    };
    return { seen, write };
  };

  it('writes a stored item once, however often it is listed', () => {
    const { seen, write } = counted();
    const list = rememberingWriter(write);
    const stored = Object.freeze({ name: 'Monstera', id: 1 });
    expect([list(stored), list(stored), list(stored)]).toEqual(Array(3).fill('{"name":"Monstera","id":1}'));
    expect(seen).toHaveLength(1);
  });

  it("is used for the memory store's items only: its pages say they are resident", () => {
    const table = createTable();
    insert(table, Object.freeze({ id: 1n, fields: Object.freeze({ name: 'Monstera' }) }));
    expect(page(table, 0, 20).resident).toBe(true);
  });

  it('writes a changed item anew (a change stores a new object), and each list its own way', () => {
    const { write } = counted();
    const list = rememberingWriter(write);
    const other = rememberingWriter((fields) => `<${String(fields.name)}>`);
    const before = Object.freeze({ name: 'Monstera', id: 1 });
    const after = Object.freeze({ ...before, name: 'Monstera deliciosa' });
    expect(list(before)).toBe('{"name":"Monstera","id":1}');
    expect(list(after)).toBe('{"name":"Monstera deliciosa","id":1}');
    expect(other(after)).toBe('<Monstera deliciosa>');
    expect(list(after)).toBe('{"name":"Monstera deliciosa","id":1}');
  });

  it(`keeps the texts of the last ${REMEMBERED_ITEMS} items written, for all lists together`, () => {
    const { seen, write } = counted();
    const list = rememberingWriter(write);
    const items = Array.from({ length: REMEMBERED_ITEMS + 1 }, (_, id) => Object.freeze({ id }));
    for (const item of items) list(item);
    list(items[REMEMBERED_ITEMS] as ItemFields);
    expect(seen).toHaveLength(REMEMBERED_ITEMS + 1);
    // The first was let go to keep the bound: written again.
    list(items[0] as ItemFields);
    expect(seen).toHaveLength(REMEMBERED_ITEMS + 2);
  });
});
