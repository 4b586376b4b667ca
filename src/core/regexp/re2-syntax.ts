/**
 * A document's `pattern`, as JavaScript reads it with the `u` flag (what Ajv compiles), written in
 * RE2's syntax with the same meaning, for a linear-time engine (core/regexp/pattern.ts).
 *
 * Where the two differ, the JavaScript meaning is spelled out: `\s` and `.` are JavaScript's sets,
 * not RE2's ASCII ones; `[]` matches nothing and `[^]` anything; `\b` in a class is a backspace; a
 * `[` in a class is a plain character (RE2 would read `[:alpha:]`); `\uXXXX` (a surrogate pair as
 * one code point), `\u{…}`, `\cX` and `\0` are code points; `(?<name>` is RE2's `(?P<name>`.
 * What RE2 cannot run (lookaround, backreferences, a lone surrogate, `\p{scx=…}`) is undefined:
 * such a pattern stays with JavaScript's engine.
 */

/** JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262), as code point ranges. */
const WHITE_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const point = (code: number) => `\\x{${code.toString(16)}}`;
const ranges = (list: readonly (readonly [number, number])[]) => list.map(([from, to]) => (from === to ? point(from) : `${point(from)}-${point(to)}`)).join('');

function complement(list: readonly (readonly [number, number])[]): (readonly [number, number])[] {
  const out: (readonly [number, number])[] = [];
  let next = 0;
  for (const [from, to] of list) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Class contents (no brackets): usable inside a class as well as wrapped in one. */
const SPACE = ranges(WHITE_SPACE);
const NOT_SPACE = ranges(complement(WHITE_SPACE));
/** JavaScript's `.` without the `s` flag: any code point but the four line terminators. */
const DOT = `[^${ranges([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;
const ANYTHING = `[${point(0)}-${point(MAX_CODE_POINT)}]`;
const NOTHING = `[^${point(0)}-${point(MAX_CODE_POINT)}]`;

/** Characters a `\` may escape with the `u` flag (SyntaxCharacter, `/`, and `-` in a class). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/-');
const HEX = /^[0-9a-fA-F]+$/;

class Untranslatable extends Error {}

/** `pattern` in RE2's syntax, or undefined where RE2 cannot say the same. */
export function re2Syntax(pattern: string): string | undefined {
  try {
    return translate(pattern);
  } catch (error) {
    if (error instanceof Untranslatable) return undefined;
    throw error;
  }
}

function translate(pattern: string): string {
  let out = '';
  let index = 0;
  let inClass = false;
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') {
      const [text, length] = escape(pattern, index + 1, inClass);
      out += text;
      index += 1 + length;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char === '[' ? '\\[' : char;
      index += 1;
      continue;
    }
    if (char === '[') {
      if (pattern.startsWith('[]', index)) {
        out += NOTHING;
        index += 2;
      } else if (pattern.startsWith('[^]', index)) {
        out += ANYTHING;
        index += 3;
      } else {
        const negated = pattern[index + 1] === '^';
        out += negated ? '[^' : '[';
        index += negated ? 2 : 1;
        inClass = true;
      }
      continue;
    }
    if (char === '(' && pattern[index + 1] === '?') {
      if (pattern.startsWith('(?:', index)) {
        out += '(?:';
        index += 3;
        continue;
      }
      if (pattern[index + 2] === '<' && pattern[index + 3] !== '=' && pattern[index + 3] !== '!') {
        out += '(?P<';
        index += 3;
        continue;
      }
      throw new Untranslatable(); // lookahead, lookbehind
    }
    out += char === '.' ? DOT : char;
    index += 1;
  }
  return out;
}

/** The escape whose letter is at `at`: its RE2 text and how many characters it took after the `\`. */
function escape(pattern: string, at: number, inClass: boolean): [string, number] {
  const letter = pattern[at];
  if (letter === undefined) throw new Untranslatable();
  switch (letter) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'r':
    case 'v':
    case 'f':
      return [`\\${letter}`, 1];
    case 's':
      return [inClass ? SPACE : `[${SPACE}]`, 1];
    case 'S':
      return [inClass ? NOT_SPACE : `[${NOT_SPACE}]`, 1];
    case 'b':
      return [inClass ? point(8) : '\\b', 1];
    case 'B':
      return ['\\B', 1];
    case '0':
      return [point(0), 1];
    case 'c': {
      const control = pattern[at + 1];
      if (control === undefined || !/[a-zA-Z]/.test(control)) throw new Untranslatable();
      return [point(control.charCodeAt(0) % 32), 2];
    }
    case 'x': {
      const hex = pattern.slice(at + 1, at + 3);
      if (hex.length !== 2 || !HEX.test(hex)) throw new Untranslatable();
      return [point(parseInt(hex, 16)), 3];
    }
    case 'u':
      return unicodeEscape(pattern, at);
    case 'p':
    case 'P':
      return property(pattern, at, letter);
    default:
      // Backreferences (\1, \k<name>) have no linear-time meaning; other letters are refused by the u flag.
      if (!SYNTAX.has(letter)) throw new Untranslatable();
      return [`\\${letter}`, 1];
  }
}

function unicodeEscape(pattern: string, at: number): [string, number] {
  if (pattern[at + 1] === '{') {
    const end = pattern.indexOf('}', at + 2);
    const hex = pattern.slice(at + 2, end);
    if (end < 0 || !HEX.test(hex)) throw new Untranslatable();
    return [point(parseInt(hex, 16)), end - at + 1];
  }
  const code = fourHex(pattern, at + 1);
  if (code >= 0xd800 && code <= 0xdbff && pattern.startsWith('\\u', at + 5)) {
    const low = fourHex(pattern, at + 7);
    if (low >= 0xdc00 && low <= 0xdfff) return [point(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)), 11];
  }
  // A lone surrogate matches a lone code unit in JavaScript; RE2 reads code points only.
  if (code >= 0xd800 && code <= 0xdfff) throw new Untranslatable();
  return [point(code), 5];
}

function fourHex(pattern: string, at: number): number {
  const hex = pattern.slice(at, at + 4);
  if (hex.length !== 4 || !HEX.test(hex)) throw new Untranslatable();
  return parseInt(hex, 16);
}

/** `\p{…}`: a General_Category or Script value by its RE2 name; RE2 refuses the names it lacks at compile time. */
function property(pattern: string, at: number, letter: 'p' | 'P'): [string, number] {
  if (pattern[at + 1] !== '{') throw new Untranslatable();
  const end = pattern.indexOf('}', at + 2);
  if (end < 0) throw new Untranslatable();
  const body = pattern.slice(at + 2, end);
  const [name, value] = body.includes('=') ? body.split('=', 2) : [undefined, body];
  const known = name === undefined || ['General_Category', 'gc', 'Script', 'sc'].includes(name);
  if (!known || value === undefined || !/^[A-Za-z_]+$/.test(value)) throw new Untranslatable();
  return [`\\${letter}{${value}}`, end - at + 1];
}
