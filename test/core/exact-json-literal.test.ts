import { describe, expect, it } from 'vitest';
import { MAX_JSON_NESTING, parseJsonExact, toJsonText } from '../../src/core/json/exact-json.js';

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
