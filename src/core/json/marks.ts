/**
 * Marks for exact JSON: an integer literal JSON.parse would round is turned into a string starting
 * with a mark (a control character the text never escapes, so no string of the text can start with
 * it), JSON.parse reads the text, and each marked string becomes the literal's exact value.
 */
import type { JsonValue } from './exact-json.js';
import { narrow } from './int64.js';

/**
 * Integers further from zero than this are out of every range we validate (int64 is ~9.2e18)
 * and are kept as ±10^40 rather than built digit by digit: a 1 MiB number must not cost a
 * quadratic BigInt conversion.
 */
export const CLAMP = 10n ** 40n;

/**
 * A control character can sit in a decoded string only where the text escapes it (`\u0000`, `\u0007`…;
 * JSON forbids it raw), so one the text never escapes marks our strings and no string of the body's.
 * Only those with one spelling: digits alone in the escape, and no short form (\b is 0x08, \t 0x09).
 */
const MARK_CODES = [...Array.from({ length: 8 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => 0x10 + i)];
export const escapeOf = (code: number): string => `\\u00${code.toString(16).padStart(2, '0')}`;

/** A mark no string of `text` can start with, or undefined when the text escapes every candidate. */
export function markAbsentFrom(text: string): string | undefined {
  for (const code of MARK_CODES) {
    if (!text.includes(escapeOf(code))) return String.fromCharCode(code);
  }
  return undefined;
}

/**
 * readRequestJson's reading of a text without fractions or exponents, as parseMarked(text,
 * exactNumber) reads it, at a fraction of its cost: one loop finds the integer literals of 16 digits
 * or more outside strings (no regular expression), JSON.parse reads the marked text without a
 * reviver, and one walk puts each literal's exact value in its place. `exact` says whether a bigint
 * was made. Undefined when the text is not JSON (the caller's JSON.parse words the error) or no
 * mark is free.
 */
export function markedIntegers(text: string): { readonly value: JsonValue; readonly exact: boolean } | undefined {
  let protectedText = '';
  let copied = 0;
  let mark: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      continue;
    }
    if (c !== MINUS && !(c >= DIGIT_0 && c <= DIGIT_9)) continue;
    // A number token, read whole: digits and a sign only, as no fraction or exponent is in the text.
    const start = i;
    let end = c === MINUS ? i + 1 : i;
    while (end < text.length && text.charCodeAt(end) >= DIGIT_0 && text.charCodeAt(end) <= DIGIT_9) end++;
    i = end - 1;
    const first = text.charCodeAt(c === MINUS ? start + 1 : start);
    if (end - start - (c === MINUS ? 1 : 0) < 16 || first === DIGIT_0 || !endsToken(text, end)) continue;
    mark ??= markAbsentFrom(text);
    if (mark === undefined) return undefined;
    protectedText += `${text.slice(copied, start)}"${escapeOf(mark.charCodeAt(0))}${text.slice(start, end)}"`;
    copied = end;
  }
  if (mark === undefined) {
    const plain = parseOrUndefined(text);
    return plain === undefined ? undefined : { value: plain, exact: false };
  }
  const value = parseOrUndefined(protectedText + text.slice(copied));
  return value === undefined ? undefined : unmarked(value, mark);
}

/** Whether a number token ending at `end` ends there (not glued to a letter or sign, which JSON would refuse anyway). */
function endsToken(text: string, end: number): boolean {
  if (end >= text.length) return true;
  const next = text.charCodeAt(end);
  return !(
    next === 0x2b ||
    next === MINUS ||
    next === 0x2e ||
    next === 0x5f ||
    (next >= 0x30 && next <= 0x39) ||
    ((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7a)
  );
}

/**
 * Each marked string in `root` (a fresh JSON.parse result, so its own to change) becomes the exact
 * number it marks; `exact` says whether one became a bigint. Undefined when a key starts with the
 * mark: the text had a number where a key belongs ({1234567890123456789: 1}), which is no JSON.
 * Iterative.
 */
function unmarked(root: JsonValue, mark: string): { readonly value: JsonValue; readonly exact: boolean } | undefined {
  let exact = false;
  // A marked literal is -?[1-9]\d{15,}: exactNumber's reading of it without its general parse.
  const numberOf = (text: string): JsonValue => {
    const negative = text.charCodeAt(1) === MINUS;
    const value = narrow(text.length - (negative ? 2 : 1) > 41 ? (negative ? -CLAMP : CLAMP) : BigInt(text.slice(1)));
    if (typeof value === 'bigint') exact = true;
    return value;
  };
  if (typeof root === 'string') return { value: root.charAt(0) === mark ? numberOf(root) : root, exact };
  const nodes: unknown[] = [root];
  while (nodes.length > 0) {
    const node = nodes.pop();
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const child: unknown = node[index];
        if (typeof child === 'string') {
          if (child.charAt(0) === mark) node[index] = numberOf(child);
        } else if (typeof child === 'object' && child !== null) nodes.push(child);
      }
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        if (key.charAt(0) === mark) return undefined;
        const child = record[key];
        if (typeof child === 'string') {
          if (child.charAt(0) !== mark) continue;
          // Assigning to "__proto__" would set the prototype: it stays an own property.
          if (key === '__proto__') Object.defineProperty(record, key, { value: numberOf(child), enumerable: true, writable: true, configurable: true });
          else record[key] = numberOf(child);
        } else if (typeof child === 'object' && child !== null) nodes.push(child);
      }
    }
  }
  return { value: root, exact };
}

/** JSON.parse's value, or undefined for text that is not JSON. */
export function parseOrUndefined(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
