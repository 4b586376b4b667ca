import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonEquals, jsonObject, parseJsonExact, toJsonText, withKey, withoutKey, type JsonValue } from './json-value.js';

// JSON values without bigint, -0 or non-finite numbers: exactly what JSON.parse gives back.
const plainJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .uniqueArray(fc.tuple(fc.oneof(fc.string({ unit: 'binary' }), fc.constant('__proto__')), tie('value')), {
        selector: ([key]) => key,
        maxLength: 4,
      })
      .map((entries) => jsonObject(entries)),
  ),
})).value;

describe('toJsonText', () => {
  it('writes bigint digits exactly, beyond what a JS number can hold', () => {
    expect(toJsonText(9007199254740993n)).toBe('9007199254740993');
    expect(toJsonText({ id: 9007199254740993n })).toBe('{"id":9007199254740993}');
    expect(toJsonText([-(2n ** 63n), 2n ** 63n - 1n, 2n ** 64n])).toBe('[-9223372036854775808,9223372036854775807,18446744073709551616]');
    // The same through JSON.stringify would have needed a number and lost the last digit.
    expect(JSON.stringify(Number(9007199254740993n))).toBe('9007199254740992');
  });

  it('keeps a __proto__ key as an own property, in order', () => {
    const object = jsonObject([
      ['a', 1],
      ['__proto__', { polluted: true }],
      ['b', 2],
    ]);
    expect(Object.keys(object)).toEqual(['a', '__proto__', 'b']);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(toJsonText(object)).toBe('{"a":1,"__proto__":{"polluted":true},"b":2}');
    expect(Object.keys(JSON.parse(toJsonText(object)) as object)).toEqual(['a', '__proto__', 'b']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // A literal with __proto__ would set the prototype and drop the key: that is what jsonObject avoids.
    expect(toJsonText({ __proto__: { x: 1 } } as unknown as JsonValue)).toBe('{}');
  });

  it('escapes strings as JSON.stringify does (quotes, controls, NUL, U+2028, emoji, lone surrogates)', () => {
    const samples = ['"\\\'', '\u0000', '\u001f\n\t\r\b\f', '\u2028\u2029', '🌱', 'e\u0301', 'שלום', '\ud800', '/'];
    for (const s of samples) expect(toJsonText(s)).toBe(JSON.stringify(s));
    expect(toJsonText('\u0000')).toBe('"\\u0000"');
    expect(toJsonText({ 'k"ey': 'v' })).toBe('{"k\\"ey":"v"}');
  });

  it('refuses non-finite numbers rather than writing null', () => {
    expect(() => toJsonText(Number.NaN)).toThrow(RangeError);
    expect(() => toJsonText([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });

  it('matches JSON.stringify and round-trips through JSON.parse for bigint-free values', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        const text = toJsonText(value);
        expect(text).toBe(JSON.stringify(value));
        expect(JSON.parse(text)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseJsonExact', () => {
  it('reads integers beyond 2^53 as bigint, digit for digit', () => {
    expect(parseJsonExact('{"id":9007199254740993}')).toEqual({ id: 9007199254740993n });
    expect(parseJsonExact('-9223372036854775809')).toBe(-9223372036854775809n);
    expect(parseJsonExact('9007199254740991')).toBe(9007199254740991);
    expect(parseJsonExact('1.5e3')).toBe(1500);
  });

  it('is the inverse of toJsonText, bigint included', () => {
    const exact = fc.oneof(
      plainJson,
      fc.bigInt().map((n): JsonValue => (Number.isSafeInteger(Number(n)) ? Number(n) : n)),
    );
    fc.assert(
      fc.property(fc.array(exact, { maxLength: 3 }), (value) => {
        expect(jsonEquals(parseJsonExact(toJsonText(value)), value)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps __proto__ as an own key', () => {
    const parsed = parseJsonExact('{"__proto__":{"x":1}}');
    expect(Object.keys(parsed as object)).toEqual(['__proto__']);
    expect(toJsonText(parsed)).toBe('{"__proto__":{"x":1}}');
  });

  it.each(['', '{', '{"a":1,}', "{'a':1}", 'plant', '{"a":"x', '[1,]', '01', '1 2', '"\u0001"', '{"a" 1}', '\ufeff{}'])(
    'rejects malformed text %j, as JSON.parse does',
    (text) => {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => parseJsonExact(text)).toThrow(SyntaxError);
    },
  );
});

describe('object helpers', () => {
  it('withKey / withoutKey keep order and __proto__', () => {
    const base = jsonObject([
      ['__proto__', 1],
      ['b', 2],
    ]);
    expect(toJsonText(withKey(base, 'b', 3))).toBe('{"__proto__":1,"b":3}');
    expect(toJsonText(withKey(base, 'c', null))).toBe('{"__proto__":1,"b":2,"c":null}');
    expect(toJsonText(withoutKey(base, 'b'))).toBe('{"__proto__":1}');
    expect(toJsonText(withoutKey(base, '__proto__'))).toBe('{"b":2}');
  });

  it('jsonEquals compares bigint and number by integer value', () => {
    expect(jsonEquals(1n, 1)).toBe(true);
    expect(jsonEquals(9007199254740993n, 9007199254740992)).toBe(false);
    // The same text on the wire: the double 98370357839424016 is written (and read back exactly) as ...020.
    expect(jsonEquals(parseJsonExact(toJsonText(98370357839424016)), 98370357839424016)).toBe(true);
    expect(jsonEquals(98370357839424020n, 98370357839424016)).toBe(true);
    expect(jsonEquals(98370357839424021n, 98370357839424016)).toBe(false);
    // Written with an exponent: its exact value, as serve (reading exactly) says it back.
    expect(jsonEquals(1000000000000000100000n, 1.0000000000000001e21)).toBe(true);
    expect(jsonEquals(-1000000000000000100000n, -1.0000000000000001e21)).toBe(true);
    expect(jsonEquals(1000000000000000000000n, 1.0000000000000001e21)).toBe(false);
    expect(jsonEquals({ a: [1, '2'] }, { a: [1, '2'] })).toBe(true);
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
