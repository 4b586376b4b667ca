import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { markAbsentFrom, MAX_JSON_NESTING, parseJsonExact, toJsonText } from '../../src/core/json/exact-json.js';

// The round trip, bigints, __proto__, escaping and malformed text are covered through the suite's
// re-export in generators/json-value.test.ts; these are the choices this module pins on lossless-json.
describe('parseJsonExact', () => {
  it('a repeated key keeps its first place and its last value, as JSON.parse does', () => {
    for (const text of ['{"a":1,"b":2,"a":3}', '{"a":[],"a":{}}', '{"a":0,"a":-0}', '{"a":{"x":1,"y":2},"a":{"y":2,"x":1}}']) {
      const parsed = parseJsonExact(text);
      expect(Object.keys(parsed as object)).toEqual(Object.keys(JSON.parse(text) as object));
      expect(parsed).toStrictEqual(JSON.parse(text));
    }
    expect(parseJsonExact('{"a":1,"a":9007199254740993}')).toEqual({ a: 9007199254740993n });
    const twice = parseJsonExact('{"__proto__":1,"__proto__":{"x":2}}');
    expect(Object.keys(twice as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(twice)).toBe(Object.prototype);
  });

  it('reads the int64 extremes and one beyond them exactly; -0 and fractions as JSON.parse does', () => {
    expect(parseJsonExact('[-9223372036854775808,9223372036854775807,9223372036854775808]')).toEqual([-(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n]);
    expect(parseJsonExact('[9007199254740991,-9007199254740991]')).toEqual([9007199254740991, -9007199254740991]);
    expect(Object.is(parseJsonExact('-0'), -0)).toBe(true);
    expect(parseJsonExact('[9007199254740993.0,1e400]')).toEqual([9007199254740992, Infinity]);
  });

  it(`refuses values nested deeper than ${MAX_JSON_NESTING} levels with a SyntaxError, however deep`, () => {
    const nested = (levels: number, inner: string): string => '['.repeat(levels) + inner + ']'.repeat(levels);
    expect(() => parseJsonExact(nested(MAX_JSON_NESTING, '1'))).not.toThrow();
    expect(() => parseJsonExact(nested(MAX_JSON_NESTING + 1, ''))).not.toThrow();
    expect(() => parseJsonExact(nested(MAX_JSON_NESTING + 1, '1'))).toThrow(SyntaxError);
    expect(() => parseJsonExact(nested(100_000, ''))).toThrow(SyntaxError);
    // Brackets inside a string are text, not nesting.
    expect(parseJsonExact(`["${'['.repeat(5000)}\\"]"]`)).toEqual([`${'['.repeat(5000)}"]`]);
  });
});

describe('toJsonText', () => {
  it('refuses a non-finite number, which lossless-json would write as null', () => {
    expect(() => toJsonText(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => toJsonText({ a: [1, Number.NaN] })).toThrow(RangeError);
  });
});

// The fast path (long integers marked, JSON.parse) must read every text as lossless-json does.
describe('parseJsonExact on long lists (the fast path)', () => {
  const lossless = (text: string): unknown =>
    parseLossless(text, null, { parseNumber: (t) => (/^-?\d+$/.test(t) && !Number.isSafeInteger(Number(t)) ? BigInt(t) : Number(t)) });
  it('reads long integers exactly and leaves digits in strings, fractions and exponents alone', () => {
    const texts = [
      '[{"id":3569721089192032879,"name":"9007199254740993"},{"id":-9223372036854775808,"tag":"a\\"1234567890123456789"}]',
      '[1.12345678901234567,12345678901234567.5,1e-12345678901234567,9007199254740993e0,1234567890123456789E2]',
      '{"\\u0000#9007199254740993":9007199254740993,"k":"\\u0000#12"}',
      '{"a":9007199254740993,"b":1,"__proto__":12345678901234567890}',
      '[9007199254740992,9007199254740991,1000000000000000]',
    ];
    for (const text of texts) expect(parseJsonExact(text)).toStrictEqual(lossless(text));
    const list = `[${Array.from({ length: 2000 }, (_, i) => `{"id":${2n ** 61n + BigInt(i) * 7919n},"name":"p${i}"}`).join(',')}]`;
    expect(parseJsonExact(list)).toStrictEqual(lossless(list));
  });
  it('still refuses what JSON forbids, a long integer with a leading zero included', () => {
    for (const text of ['[01234567890123456789]', '[-01234567890123456789]', '[12345678901234567890,]', '"\u0001"']) {
      expect(() => parseJsonExact(text)).toThrow(SyntaxError);
    }
  });
  it('agrees with lossless-json on any JSON text', () => {
    fc.assert(
      fc.property(fc.json(), fc.array(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), { maxLength: 4 }), (json, bigs) => {
        const text = `[${[json, ...bigs].join(',')}]`;
        expect(parseJsonExact(text)).toStrictEqual(lossless(text));
      }),
    );
  });
  it('never reads a string of the body as a marked number, however its control characters are escaped', () => {
    // "\u0000\u0023…" decodes to the old fixed mark (NUL, #) followed by digits: it stays a string.
    const text = '{"k":"\\u0000\\u00239007199254740993","n":9007199254740993,"t":"\\b\\t1"}';
    expect(parseJsonExact(text)).toStrictEqual({ k: '\u0000#9007199254740993', n: 9007199254740993n, t: '\b\t1' });
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 6 }), fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }), (strings, big) => {
        const text = `[${[...strings.map((s) => JSON.stringify(s)), String(big), ...strings.map((s) => JSON.stringify(`${s}${big}`))].join(',')}]`;
        expect(parseJsonExact(text)).toStrictEqual(lossless(text));
      }),
    );
  });
  it('marks with a control character the text never escapes, so a name holding one keeps the fast path', () => {
    expect(markAbsentFrom('[9007199254740993]')).toBe('\u0000');
    expect(markAbsentFrom('["\\u0000#",9007199254740993]')).toBe('\u0001');
    // \b and \t have short escapes: they are never marks.
    const allButOne = [0, 1, 2, 3, 4, 5, 6, 7, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18]
      .map((c) => JSON.stringify(String.fromCharCode(c)))
      .join(',');
    expect(markAbsentFrom(`[${allButOne}]`)).toBe('\u0019');
    expect(markAbsentFrom(`[${allButOne},"\\u0019"]`)).toBeUndefined();
    expect(parseJsonExact(`[${allButOne},"\\u0019",9007199254740993]`)).toStrictEqual(lossless(`[${allButOne},"\\u0019",9007199254740993]`));
  });
});
