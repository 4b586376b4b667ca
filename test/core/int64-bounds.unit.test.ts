/**
 * The int64 bridge to prism's validator: validationView turns bigints into doubles on the same side
 * of the int64 bounds; widenInt64Bounds gives int64 schemas their true bounds instead of ±(2^53 − 1).
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/index.js';
import { INT64_MAX, INT64_MIN } from '../../src/core/json/int64.js';
import { int64Message, validationView, widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';

const TWO_POW_63 = 2 ** 63;

describe('validationView', () => {
  it('maps the largest int64 below 2^63 (Number() alone would round it up to 2^63)', () => {
    expect(Number(INT64_MAX)).toBe(TWO_POW_63);
    const view = validationView(INT64_MAX) as number;
    expect(view).toBeLessThan(TWO_POW_63);
    expect(view).toBeGreaterThan(2 ** 62);
  });

  it('maps 2^63 and beyond to at least 2^63', () => {
    expect(validationView(INT64_MAX + 1n)).toBeGreaterThanOrEqual(TWO_POW_63);
    expect(validationView(10n ** 40n)).toBeGreaterThanOrEqual(TWO_POW_63);
  });

  it('maps the smallest int64 to −2^63 and anything below it below −2^63', () => {
    expect(validationView(INT64_MIN)).toBe(-TWO_POW_63);
    expect(validationView(INT64_MIN - 1n)).toBeLessThan(-TWO_POW_63);
  });

  it('maps ids between 2^53 and 2^63 to nearby doubles', () => {
    expect(validationView(9007199254740993n)).toBe(9007199254740992);
  });

  it('leaves everything that is not a bigint as it is, at any depth', () => {
    const value = { name: 'n', tag: null, list: [1, 'two', true, { id: 9007199254740993n }] };
    expect(validationView(value)).toEqual({ name: 'n', tag: null, list: [1, 'two', true, { id: 9007199254740992 }] });
  });

  it('keeps a "__proto__" key an own property of the copy', () => {
    const value = JSON.parse('{"__proto__":{"id":1},"id":2}') as Record<string, never>;
    const view = validationView(value) as Record<string, unknown>;
    expect(Object.keys(view)).toEqual(['__proto__', 'id']);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect((view as { id?: unknown }).id).toBe(2);
  });
});

describe('widenInt64Bounds', () => {
  const prismInt64 = {
    type: 'integer',
    format: 'int64',
    minimum: -9007199254740991,
    maximum: 9007199254740991,
    'x-stoplight': { explicitProperties: ['type', 'format'] },
  };

  it('replaces the ±(2^53 − 1) prism adds to int64 with the true bounds', () => {
    const widened = widenInt64Bounds(prismInt64) as Record<string, unknown>;
    expect(widened.minimum).toBe(-TWO_POW_63);
    expect(widened.exclusiveMaximum).toBe(TWO_POW_63);
    expect(widened).not.toHaveProperty('maximum');
  });

  it('leaves the input unchanged (returns a copy)', () => {
    const before = structuredClone(prismInt64);
    widenInt64Bounds(prismInt64);
    expect(prismInt64).toEqual(before);
  });

  it('keeps bounds the author wrote', () => {
    const authored = { ...prismInt64, minimum: 1, maximum: 100, 'x-stoplight': { explicitProperties: ['type', 'format', 'minimum', 'maximum'] } };
    const widened = widenInt64Bounds(authored) as Record<string, unknown>;
    expect(widened.minimum).toBe(1);
    expect(widened.maximum).toBe(100);
    expect(widened).not.toHaveProperty('exclusiveMaximum');
  });

  it('leaves int32 and plain integers alone', () => {
    const int32 = { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647 };
    expect(widenInt64Bounds(int32)).toEqual(int32);
  });

  it('copes with cyclic schemas', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    const widened = widenInt64Bounds(node) as { properties: { child: unknown } };
    expect(widened.properties.child).toBe(widened);
  });

  it('widens the id of the bundled NewPlant, inside its allOf', async () => {
    const [operation] = (await loadDocument()).operations;
    const schema = operation?.request?.body?.contents?.[0]?.schema;
    expect(JSON.stringify(schema)).toContain('9007199254740991');
    const widened = JSON.stringify(widenInt64Bounds(schema));
    expect(widened).not.toContain('9007199254740991');
    expect(widened).toContain(`"exclusiveMaximum":${TWO_POW_63}`);
    expect(widened).toContain(`"minimum":${-TWO_POW_63}`);
  });
});

describe('int64Message', () => {
  it("words Ajv's widened bounds as int64's own", () => {
    expect(int64Message(`Request body property id must be < ${TWO_POW_63}`)).toBe('Request body property id must be <= 9223372036854775807 (int64)');
    expect(int64Message(`Request body property id must be >= ${-TWO_POW_63}`)).toBe('Request body property id must be >= -9223372036854775808 (int64)');
  });
});
