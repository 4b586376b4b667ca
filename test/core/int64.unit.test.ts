/** The one int64 text reader: canonical decimal within int64, nothing else. */
import { describe, expect, it } from 'vitest';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../../src/core/json/int64.js';

describe('parseInt64', () => {
  it('reads canonical decimal within int64, the bounds included', () => {
    expect(parseInt64('0')).toBe(0n);
    expect(parseInt64('7')).toBe(7n);
    expect(parseInt64('-1')).toBe(-1n);
    expect(parseInt64('9223372036854775807')).toBe(INT64_MAX);
    expect(parseInt64('-9223372036854775808')).toBe(INT64_MIN);
  });

  it.each([
    ['007', 'leading zeros'],
    ['-0', 'negative zero'],
    ['+1', 'a plus sign'],
    [' 1', 'a space'],
    ['1 ', 'a trailing space'],
    ['0x1f', 'hexadecimal'],
    ['1e3', 'an exponent'],
    ['1.0', 'a fraction'],
    ['', 'nothing'],
    ['9223372036854775808', 'INT64_MAX + 1'],
    ['-9223372036854775809', 'INT64_MIN - 1'],
    ['99999999999999999999', 'twenty digits'],
  ])('refuses %j (%s)', (text) => {
    expect(parseInt64(text)).toBeUndefined();
  });
});
