/** Exact JSON: integers beyond 2^53 keep their digits; what JSON Schema calls an integer is one. */
import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { exactNumber, integerFromJsonNumber, MAX_JSON_DEPTH, readRequestJson, parseJsonExact } from '../../src/core/json/exact-json.js';

describe('integerFromJsonNumber', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['42', 42n],
    ['-17', -17n],
    ['1.0', 1n],
    ['1e2', 100n],
    ['1E+2', 100n],
    ['10.00e-1', 1n],
    ['2.50e1', 25n],
    ['100e-2', 1n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775809', -9223372036854775809n],
    ['9223372036854775807.000', 9223372036854775807n],
  ])('reads %s as the integer %s', (text, expected) => {
    expect(integerFromJsonNumber(text)).toBe(expected);
  });

  it.each(['1.5', '1e-1', '0.1', '9007199254740993.5', '-2.25e1', 'abc', '', '1e', '--1', 'Infinity'])('finds no integer in %j', (text) => {
    expect(integerFromJsonNumber(text)).toBeUndefined();
  });

  it('clamps integers far beyond int64 to ±10^40 instead of building them digit by digit', () => {
    expect(integerFromJsonNumber('1e400')).toBe(10n ** 40n);
    expect(integerFromJsonNumber('-1e400')).toBe(-(10n ** 40n));
    expect(integerFromJsonNumber('9'.repeat(1000))).toBe(10n ** 40n);
  });

  it('reads a 1e1000000 exponent without building a million-digit number (fast)', () => {
    const started = performance.now();
    expect(integerFromJsonNumber('1e1000000')).toBe(10n ** 40n);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('exactNumber', () => {
  it('gives safe integers and fractions as numbers', () => {
    expect(exactNumber('42')).toBe(42);
    expect(exactNumber('1.5')).toBe(1.5);
  });

  it('gives integers beyond 2^53 as bigints', () => {
    expect(exactNumber('9007199254740993')).toBe(9007199254740993n);
  });

  it('gives NaN for a fraction with more digits than a double holds, so no validator takes it for an integer', () => {
    expect(exactNumber('9007199254740993.5')).toBeNaN();
  });
});

describe('readRequestJson', () => {
  it('keeps safe integers as numbers (the fast path)', () => {
    expect(readRequestJson('{"name":"a","id":7}')).toEqual({ ok: true, value: { name: 'a', id: 7 }, exact: false });
  });

  it('keeps an id beyond 2^53 exactly, as a bigint', () => {
    const parsed = readRequestJson('{"name":"a","id":9007199254740993,"small":1,"fraction":0.5}');
    expect(parsed).toEqual({ ok: true, value: { name: 'a', id: 9007199254740993n, small: 1, fraction: 0.5 }, exact: true });
  });

  it('keeps both ends of int64 exactly', () => {
    expect(readRequestJson('[-9223372036854775808,9223372036854775807]')).toEqual({
      ok: true,
      value: [-9223372036854775808n, 9223372036854775807n],
      exact: true,
    });
  });

  it('reads long integers as lossless-json reads them, on the fast path too (no fraction or exponent in the text)', () => {
    const lossless = (text: string): unknown => parseLossless(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue });
    const huge = `[${'9'.repeat(5000)},-${'1'.repeat(60)}]`;
    expect(readRequestJson(huge)).toStrictEqual({ ok: true, value: lossless(huge), exact: true });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
            fc.string().map((text) => JSON.stringify(text)),
            fc.constant('"9007199254740993"'),
          ),
          {
            maxLength: 8,
          },
        ),
        fc.boolean(),
        (items, asObject) => {
          const text = asObject ? `{${items.map((item, index) => `"k${index % 3}":${item}`).join(',')}}` : `[${items.join(',')}]`;
          const parsed = readRequestJson(text);
          expect(parsed.ok && parsed.value).toStrictEqual(lossless(text));
        },
      ),
    );
  });

  it('refuses text that is not JSON, saying so', () => {
    const parsed = readRequestJson('{"name":');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain('not valid JSON');
  });

  // The int64 path marks long integer literals as strings before JSON.parse reads the text: a
  // literal where a key belongs must not become a key.
  it.each(['{1234567890123456789:1}', '{"a":1,-1234567890123456789:2}', '[1234567890123456789x]', '{"a":01234567890123456789}'])(
    'refuses %s, a long integer where JSON has none, as not JSON',
    (text) => {
      const parsed = readRequestJson(text);
      expect(parsed.ok ? '' : parsed.reason).toContain('not valid JSON');
    },
  );

  it('reads long integer literals exactly wherever a value may be (root, arrays, nested, after a repeated key)', () => {
    const read = readRequestJson(
      '{"a":[1234567890123456789, -9223372036854775808],"b":{"c":9007199254740993},"a2":"9007199254740993","d":5,"d":9007199254740995}',
    );
    expect(read).toEqual({
      ok: true,
      exact: true,
      value: { a: [1234567890123456789n, -9223372036854775808n], b: { c: 9007199254740993n }, a2: '9007199254740993', d: 9007199254740995n },
    });
    expect(readRequestJson('-9223372036854775809')).toEqual({ ok: true, exact: true, value: -9223372036854775809n });
    // 16 digits a double holds exactly stay a number, and the reading is not marked exact.
    expect(readRequestJson('{"id":1000000000000000}')).toEqual({ ok: true, exact: false, value: { id: 1000000000000000 } });
  });

  it(`accepts nesting of exactly ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(readRequestJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(true);
    const deeper = readRequestJson(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`);
    expect(deeper).toEqual({ ok: false, reason: `the body nests deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it('refuses deep nesting before the recursive exact parser runs (a big number inside does not overflow the stack)', () => {
    const parsed = readRequestJson(`${'['.repeat(100_000)}9007199254740993${']'.repeat(100_000)}`);
    expect(parsed).toEqual({ ok: false, reason: `the body nests deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it('keeps "__proto__" an own key on both paths and pollutes nothing', () => {
    for (const id of ['1', '9007199254740993']) {
      const parsed = readRequestJson(`{"__proto__":{"polluted":true},"id":${id}}`);
      if (!parsed.ok) throw new Error(parsed.reason);
      const value = parsed.value as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(['__proto__', 'id']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(value.polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});

describe('a repeated key, on every path of both readers', () => {
  it('keeps its first place and its last value, as JSON.parse does', () => {
    const plain = readRequestJson('{"a":1,"b":2,"a":3}');
    const lossless = readRequestJson('{"a":1,"b":2,"a":9007199254740993}');
    expect(plain).toEqual({ ok: true, value: { a: 3, b: 2 }, exact: false });
    expect(lossless).toEqual({ ok: true, value: { a: 9007199254740993n, b: 2 }, exact: true });
    if (lossless.ok) expect(Object.keys(lossless.value as object)).toEqual(['a', 'b']);
    expect(parseJsonExact('{"a":1,"b":2,"a":9007199254740993}')).toEqual({ a: 9007199254740993n, b: 2 });
  });
});
