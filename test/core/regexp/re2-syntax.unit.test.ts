/**
 * Each rule of core/regexp/re2-syntax.ts, held against JavaScript's own RegExp: a pattern the
 * translation reads otherwise than JavaScript does fails here on the text that tells them apart.
 */
import { describe, expect, it } from 'vitest';
import { compilePattern, isLinear } from '../../../src/core/regexp/pattern.js';
import { re2Syntax } from '../../../src/core/regexp/re2-syntax.js';

/** Pattern, texts whose answers JavaScript and the linear engine must share. */
const CASES: readonly (readonly [string, readonly string[]])[] = [
  ['^\\s+$', [' ', '\u00a0', '\u2028', '\ufeff', '\u3000', '\v', 'a', '\u200b']],
  ['^\\S+$', ['a', '\u00a0', 'x\u2029', '😀', '\u200b']],
  ['^[\\s\\d]+$', ['1 2', '\u00a0', 'a']],
  ['^[^\\s]+$', ['abc', 'a\u1680b']],
  ['^[\\S]$', ['a', '\u2000', '😀']],
  ['^.$', ['a', '\n', '\r', '\u2028', '\u2029', '😀', '\u0085']],
  ['^a.c$', ['abc', 'a\rc', 'a\u00a0c']],
  ['^[.]$', ['.', 'a']],
  ['^a[]', ['a', 'ab']],
  ['^a[^]$', ['ab', 'a\n', 'a']],
  ['^[[:alpha:]+$', ['[:a', 'alpha', 'b']],
  ['^[\\b]$', ['\b', 'b']],
  ['\\bword\\b', ['a word here', 'swordfish']],
  ['^\\u00e9$', ['é', 'e']],
  ['^\\uD83D\\uDE00$', ['😀', '😃']],
  ['^\\u{1F600}$', ['😀', '😃']],
  ['^\\x41\\cJ\\0$', ['A\n\u0000', 'A\n0']],
  ['^\\p{L}+$', ['abcé', 'ab1', 'Ωμέγα']],
  ['^\\p{Script=Greek}+$', ['Ωμέγα', 'abc']],
  ['^\\P{Lu}+$', ['abc', 'aBc']],
  ['^(?<year>\\d{4})-(?:\\d{2})$', ['2024-01', '2024-1']],
  ['^\\/api\\/v[12]\\/\\{id\\}$', ['/api/v1/{id}', '/api/v3/{id}']],
  ['^[a-z\\-_]+$', ['a-b_c', 'a.b']],
  ['abc$', ['xabc', 'abc\n']],
  ['^abc', ['abc', '\nabc']],
  ['^(a+)+$', ['aaaa', 'aaab']],
  ['^WS[0-9a-fA-F]{32}$', ['WS' + 'a'.repeat(32), 'WS' + 'a'.repeat(31)]],
];

describe('patterns in RE2 syntax read as JavaScript reads them', () => {
  for (const [pattern, texts] of CASES) {
    it(`${pattern} runs in linear time and answers as RegExp does`, () => {
      expect(isLinear(pattern)).toBe(true);
      const native = new RegExp(pattern, 'u');
      const linear = compilePattern(pattern);
      for (const text of texts) expect([text, linear.test(text)]).toEqual([text, native.test(text)]);
    });
  }

  it('leaves to JavaScript what RE2 cannot run, and answers as RegExp does', () => {
    for (const [pattern, text] of [
      ['^(?=.*\\d)\\w+$', 'ab1'],
      ['^(?!x)\\w+$', 'ab'],
      ['(?<=a)b', 'ab'],
      ['^(a)\\1$', 'aa'],
      ['^(?<x>a)\\k<x>$', 'aa'],
      ['^\\uD800$', '\ud800'],
      ['^a{1001}$', 'a'.repeat(1001)],
      ['^\\p{scx=Greek}$', 'α'],
    ] as const) {
      expect(isLinear(pattern), pattern).toBe(false);
      expect(compilePattern(pattern).test(text), pattern).toBe(new RegExp(pattern, 'u').test(text));
    }
  });

  it('refuses what RegExp refuses with the u flag and without, with its error', () => {
    for (const pattern of ['(', '[a-', '(?<1>a)', 'a**']) expect(() => compilePattern(pattern)).toThrow(SyntaxError);
  });

  it("reads a pattern only the u flag refuses as ECMA-262 reads it without (DigitalOcean's tag name: an identity escape '\\:')", () => {
    // The u flag refuses it, and serve answered a 5xx and verify ended with no verdict on every tag.
    const tag = compilePattern('^[a-zA-Z0-9_\\-\\:]+$');
    expect(['web:prod', 'a-b_c', 'x'].map((t) => tag.test(t))).toEqual([true, true, true]);
    expect(['a b', '', 'a/b'].map((t) => tag.test(t))).toEqual([false, false, false]);
    expect(compilePattern('\\q').test('q')).toBe(true);
  });

  it('keeps the pattern as Ajv keys it (one scope value per pattern)', () => {
    expect(String(compilePattern('^a$'))).toBe('/^a$/u');
    expect(String(compilePattern('^b$'))).not.toBe(String(compilePattern('^a$')));
  });

  it('writes RE2 syntax for the rules above', () => {
    expect(re2Syntax('(?<n>a)')).toBe('(?P<n>a)');
    expect(re2Syntax('[[]')).toBe('[\\[]');
    expect(re2Syntax('\\u{41}')).toBe('\\x{41}');
  });
});

describe('a long text costs linear time', () => {
  it("Eclipse Ditto's unanchored definition pattern answers a 200,000-character value at once", () => {
    const pattern = '([_a-zA-Z0-9\\-.]+):([_a-zA-Z0-9\\-.]+):([_a-zA-Z0-9\\-.]+)';
    const linear = compilePattern(pattern);
    const started = performance.now();
    expect(linear.test('a:'.repeat(100_000))).toBe(true);
    expect(linear.test('a'.repeat(200_000) + ':a')).toBe(false);
    // JavaScript's RegExp needs seconds for the second text (docs/limitations.md); this bound is 30 times that of a run here.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('a nested quantifier on an almost-matching text', () => {
    const linear = compilePattern('^(a+)+$');
    const started = performance.now();
    expect(linear.test('a'.repeat(100_000) + '!')).toBe(false);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
