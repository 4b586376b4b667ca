/**
 * Exact JSON: text ↔ value without losing integers, on lossless-json, for the server and the suite.
 * An integer a JS number cannot hold (beyond ±(2^53 − 1)) is a bigint, and a bigint is written digit
 * for digit, so 9007199254740993 survives. Everywhere a repeated key keeps its first place and its
 * last value, as JSON.parse (and Prism, Express) do: which parser reads a body must not decide what
 * it means. `__proto__` stays an own key.
 *
 * Readers named for their jobs, with one depth rule (MAX_JSON_DEPTH levels of arrays and objects,
 * counted on the parsed value without recursion):
 * - readRequestJson, the server's request reader: JSON.parse first (fast, iterative), lossless-json
 *   only when a number lost digits; an integer however written (1e3, 1.0) is exact, and a fraction
 *   never rounds into an integer a validator would take.
 * - readAnswerJson, the reader of answers (verify's checks, the conformance judge): numbers as
 *   JSON.parse reads them except integer literals beyond 2^53, so what it reads compares with what
 *   was sent. An answer is read once for every check (contracts/checks/answer-json.ts).
 * parseJsonExact reads the suite's own texts (what it sends) the answer way, throwing on bad text.
 */
import { createRequire } from 'node:module';
import type { NumberStringifier, OnDuplicateKey, ParseOptions } from 'lossless-json';
import { narrow } from './int64.js';
import { CLAMP, escapeOf, markAbsentFrom, markedIntegers, parseOrUndefined } from './marks.js';

export { markAbsentFrom };

type LosslessJson = Pick<typeof import('lossless-json'), 'parse' | 'stringify'>;
const require = createRequire(import.meta.url);
let lossless: LosslessJson | undefined;
/**
 * lossless-json, loaded on first use: its ES build is ten modules that cost a start 11–15 ms, and a
 * start, like most requests, reads and writes nothing JSON.parse cannot. `require` takes its single
 * CommonJS file; nothing else imports the package, so a process holds one copy.
 */
const losslessJson = (): LosslessJson => (lossless ??= require('lossless-json') as LosslessJson);
const parseLossless = (...args: Parameters<LosslessJson['parse']>) => losslessJson().parse(...args);

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** `exact` is true when the value holds bigints (it was read losslessly): only then does a validator need a view of it. */
export type ParsedJson = { readonly ok: true; readonly value: JsonValue; readonly exact: boolean } | { readonly ok: false; readonly reason: string };

/** Deeper bodies are refused: nothing in a plant is nested, and validators and copies recurse. */
export const MAX_JSON_DEPTH = 64;

/** A digit followed by a fraction or exponent: some number in the text (or a string) may not be what JSON.parse made of it. */
const FRACTION_OR_EXPONENT = /\d[.eE]/;

/**
 * Parses JSON text exactly. `JSON.parse` does the work (V8's parser is iterative, so deep
 * nesting cannot overflow the stack, and it is ~3× faster than a lossless parser); only when a
 * number cannot be held exactly is the text parsed again with lossless-json to keep its digits.
 */
export function readRequestJson(text: string): ParsedJson {
  const long = SIXTEEN_DIGITS.test(text);
  // Most bodies: too short to nest past the limit (a level takes two characters), no integer long
  // enough to lose digits, no fraction to round. JSON.parse's reading is then exact as it is.
  if (!long && text.length <= SHALLOW_TEXT && !FRACTION_OR_EXPONENT.test(text)) {
    const read = parsed(text);
    return read.ok ? { ok: true, value: read.value as JsonValue, exact: false } : read;
  }
  // A long integer literal and no fraction or exponent (every create with an int64 id): its digits
  // are marked and read in one pass, without first reading the text the lossy way.
  if (long && !FRACTION_OR_EXPONENT.test(text)) {
    const marked = markedIntegers(text);
    if (marked !== undefined) {
      const { depth } = scanNumbersAndDepth(marked.value);
      if (depth > MAX_JSON_DEPTH) return { ok: false, reason: `the body nests deeper than ${MAX_JSON_DEPTH} levels` };
      return { ok: true, value: marked.value, exact: marked.exact };
    }
  }
  const read = parsedAndScanned(text);
  if (!read.ok) return read;
  const { value, scan } = read;
  // A fraction or exponent in the text may have rounded to an integer double (1.00000000000000000000001).
  const mayHaveRounded = scan.integral && FRACTION_OR_EXPONENT.test(text);
  if (!scan.inexact && !mayHaveRounded) return { ok: true, value: value as JsonValue, exact: false };
  // No fraction or exponent anywhere: only integer literals of 16 digits or more can have lost digits
  // (every shorter one is safe), so they are marked and JSON.parse reads the rest — every create with
  // an int64 id comes this way, at a fraction of lossless-json's cost.
  if (!FRACTION_OR_EXPONENT.test(text)) {
    const marked = parseMarked(text, exactNumber);
    if (marked !== undefined) return { ok: true, value: marked, exact: true };
  }
  // Depth is bounded now, so the recursive lossless parser cannot overflow. A repeated key keeps
  // its last value, as JSON.parse (and Prism, Express) do: which parser reads a body must not
  // decide whether it is accepted.
  try {
    return { ok: true, value: parseLossless(text, null, LOSSLESS_OPTIONS) as JsonValue, exact: true };
  } catch (error) {
    return { ok: false, reason: `the body cannot be read exactly (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** lossless-json throws on a repeated key with a different value unless told otherwise: the last one wins. */
const lastWins: OnDuplicateKey = ({ newValue }) => newValue;
const LOSSLESS_OPTIONS: ParseOptions = { parseNumber: exactNumber, onDuplicateKey: lastWins };

/**
 * An answer's body read exactly, as readRequestJson refuses what it cannot read (a reason, never a
 * throw) and with its depth rule: integer literals beyond 2^53 become bigints (`exact` then true),
 * every other number is the double JSON.parse gives.
 */
export function readAnswerJson(text: string): ParsedJson {
  const read = parsedAndScanned(text);
  if (!read.ok) return read;
  const { value, scan } = read;
  if (!scan.inexact) return { ok: true, value: value as JsonValue, exact: false };
  // Depth is bounded now, so the recursive lossless parser cannot overflow.
  const exact = parseMarked(text, literalNumber) ?? (parseLossless(text, null, { parseNumber: literalNumber, onDuplicateKey: lastWins }) as JsonValue);
  return { ok: true, value: exact, exact: true };
}

type Scan = ReturnType<typeof scanNumbersAndDepth>;

/** JSON.parse's reading and its scan, or the refusal both readers give: not JSON, or nested too deep. */
function parsedAndScanned(text: string): { readonly ok: false; readonly reason: string } | { readonly ok: true; readonly value: unknown; readonly scan: Scan } {
  const read = parsed(text);
  if (!read.ok) return read;
  const { value } = read;
  const scan = scanNumbersAndDepth(value);
  if (scan.depth > MAX_JSON_DEPTH) return { ok: false, reason: `the body nests deeper than ${MAX_JSON_DEPTH} levels` };
  return { ok: true, value, scan };
}

/** JSON.parse's reading, or why the text is not JSON. */
function parsed(text: string): { readonly ok: false; readonly reason: string } | { readonly ok: true; readonly value: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `the body is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** A text this short cannot nest deeper than MAX_JSON_DEPTH: every level takes an opening and a closing character. */
const SHALLOW_TEXT = 2 * MAX_JSON_DEPTH + 1;

/**
 * Walks the value without recursion: its depth, whether a number lost digits, whether any is an
 * integer. Numbers are looked at where they are found; only containers wait on the two stacks, made
 * when the first nested one turns up (a flat body, every create, allocates none).
 */
function scanNumbersAndDepth(root: unknown): { depth: number; inexact: boolean; integral: boolean } {
  const scan = { depth: 0, inexact: false, integral: false };
  let nodes: unknown[] | undefined;
  let levels: number[] | undefined;
  let node: unknown = root;
  let level = 1;
  for (;;) {
    if (typeof node === 'number') number(scan, node);
    else if (typeof node === 'object' && node !== null) {
      if (level > scan.depth) scan.depth = level;
      if (scan.depth > MAX_JSON_DEPTH) break;
      if (Array.isArray(node)) {
        for (let index = 0; index < node.length; index++) {
          const child: unknown = node[index];
          if (typeof child === 'number') number(scan, child);
          else if (typeof child === 'object' && child !== null) {
            (nodes ??= []).push(child);
            (levels ??= []).push(level + 1);
          }
        }
      } else {
        const record = node as Record<string, unknown>;
        for (const key in record) {
          if (!Object.hasOwn(record, key)) continue;
          const child = record[key];
          if (typeof child === 'number') number(scan, child);
          else if (typeof child === 'object' && child !== null) {
            (nodes ??= []).push(child);
            (levels ??= []).push(level + 1);
          }
        }
      }
    }
    if (nodes === undefined || nodes.length === 0) break;
    node = nodes.pop();
    level = levels?.pop() as number;
  }
  return scan;
}

function number(scan: { inexact: boolean; integral: boolean }, value: number): void {
  if (Number.isInteger(value)) scan.integral = true;
  if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) scan.inexact = true;
}

/**
 * A JSON number text as a value: a bigint when it is an integer a JS number cannot hold; a number
 * otherwise. A fraction that a double rounds to an integer (1.00000000000000000000001, -1e-400)
 * becomes the next double away from zero, which is no integer and within one ulp of the value;
 * beyond 2^52, where every double is an integer, it becomes NaN, which no validator takes for one.
 */
export function exactNumber(text: string): number | bigint {
  const integer = integerFromJsonNumber(text);
  if (integer !== undefined) return narrow(integer);
  const asNumber = Number(text);
  if (!Number.isInteger(asNumber)) return asNumber;
  return Math.abs(asNumber) < 2 ** 52 ? nextAwayFromZero(asNumber) : Number.NaN;
}

function nextAwayFromZero(value: number): number {
  if (value === 0) return Object.is(value, -0) ? -Number.MIN_VALUE : Number.MIN_VALUE;
  // Adding one to a double's bits moves it one step further from zero, whatever its sign.
  const bits = new DataView(new ArrayBuffer(8));
  bits.setFloat64(0, value);
  bits.setBigUint64(0, bits.getBigUint64(0) + 1n);
  return bits.getFloat64(0);
}

/** The exact integer a JSON number text denotes (1.0, 1e3 and 10.00e-1 are integers), or undefined. */
export function integerFromJsonNumber(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let exponent = Number(exponentText) - fraction.length;
  if (digits === '') return 0n;
  while (exponent < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent += 1;
  }
  if (exponent < 0) return undefined;
  const magnitude = digits.length + exponent > 41 ? CLAMP : BigInt(digits) * 10n ** BigInt(exponent);
  return sign === '-' ? -magnitude : magnitude;
}

// The suite's reader and the writer.

/** Values nested deeper than this are refused: the parser recurses, and must not overflow the stack. */
export const MAX_JSON_NESTING = 1000;

/**
 * Parses one JSON value exactly: integer literals outside the JS safe range become bigint (JSON.parse
 * would round 9007199254740993 to ...992); every other number is the double JSON.parse would give.
 * Keys such as `__proto__` become own properties. Strict RFC 8259 grammar: no trailing commas, no
 * single quotes, no comments, no leading BOM. Throws a SyntaxError on anything else.
 */
export function parseJsonExact(text: string): JsonValue {
  refuseDeepNesting(text, MAX_JSON_NESTING);
  const plain = parseOrUndefined(text);
  // Most answers hold no integer beyond 2^53: JSON.parse read them exactly, and a walk is cheaper than a second pass over the text.
  if (plain !== undefined && !holdsUnsafeInteger(plain)) return plain;
  const fast = parseMarked(text, literalNumber);
  if (fast !== undefined) return fast;
  return parseLossless(text, null, { parseNumber: literalNumber, onDuplicateKey: lastWins }) as JsonValue;
}

/**
 * Each string token (skipped whole, so digits inside it are text), or an integer literal of 16 digits
 * or more standing alone (not part of a fraction or exponent; no leading zero, which JSON forbids).
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?[1-9]\d{15,}(?![\w.+-])/g;
/**
 * parseJsonExact's fast path (a list answer of thousands of int64 ids costs ~5× less than lossless-json):
 * every long integer literal is turned into a marked string, JSON.parse reads the text (same grammar,
 * same repeated-key rule, `__proto__` an own key), and each marked string becomes the number or bigint
 * lossless-json would make of it. Undefined when the text cannot go this way (not JSON: lossless-json
 * gives the error; no mark is free).
 */
function parseMarked(text: string, numberOf: (literal: string) => number | bigint): JsonValue | undefined {
  // Most answers have no 16-digit run at all: no copy of the text is made for them.
  if (!SIXTEEN_DIGITS.test(text)) return parseOrUndefined(text);
  let mark = undefined as string | undefined;
  let unmarkable = false;
  const protectedText = text.replace(STRING_OR_LONG_INTEGER, (token) => {
    if (token.charCodeAt(0) === QUOTE || unmarkable) return token;
    mark ??= markAbsentFrom(text);
    if (mark === undefined) {
      unmarkable = true;
      return token;
    }
    return `"${escapeOf(mark.charCodeAt(0))}${token}"`;
  });
  if (unmarkable) return undefined;
  if (mark === undefined) return parseOrUndefined(text);
  const found = mark;
  try {
    return JSON.parse(protectedText, (_key, value: unknown) =>
      typeof value === 'string' && value.charAt(0) === found ? numberOf(value.slice(1)) : value,
    ) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Whether some number in the value is an integer beyond ±(2^53 − 1), which its text may have written with more digits. Iterative: 1000 levels. */
function holdsUnsafeInteger(root: unknown): boolean {
  const nodes: unknown[] = [root];
  while (nodes.length > 0) {
    const node = nodes.pop();
    if (typeof node === 'number') {
      if (Number.isInteger(node) && !Number.isSafeInteger(node)) return true;
    } else if (Array.isArray(node)) {
      for (const child of node) nodes.push(child);
    } else if (typeof node === 'object' && node !== null) {
      for (const key in node) if (Object.hasOwn(node, key)) nodes.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}

const SIXTEEN_DIGITS = /\d{16}/;

/**
 * The exact JSON text of `value`: bigint as its decimal digits (never through a number), strings
 * escaped as JSON.stringify escapes them, object keys in their order. A non-finite number has no
 * JSON form and throws a RangeError instead of silently becoming null.
 */
export function toJsonText(value: JsonValue): string {
  const text = losslessJson().stringify(value, null, undefined, REFUSE_NON_FINITE);
  if (text === undefined) throw new TypeError(`${String(value)} is not a JSON value`);
  return text;
}

const INTEGER_LITERAL = /^-?\d+$/;

/** A JSON number's text as JSON.parse reads it, but a bigint when it is an integer literal no JS number holds exactly. */
function literalNumber(text: string): number | bigint {
  const value = Number(text);
  if (!INTEGER_LITERAL.test(text) || Number.isSafeInteger(value)) return value;
  return BigInt(text);
}

const REFUSE_NON_FINITE: NumberStringifier[] = [
  {
    test: (value) => typeof value === 'number' && !Number.isFinite(value),
    stringify: (value) => {
      throw new RangeError(`${String(value)} has no JSON representation`);
    },
  },
];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Throws a SyntaxError when some value in `text` sits inside more than `limit` arrays and objects.
 * One pass over the text, before the recursive parser sees it; an empty container at the limit is
 * still fine, since nothing sits inside it. Malformed text is left for the parser to refuse.
 */
function refuseDeepNesting(text: string, limit: number): void {
  let depth = 0;
  let justOpened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (justOpened && depth > limit && c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) {
      throw new SyntaxError(`JSON nested deeper than ${limit} levels at position ${i}`);
    }
    justOpened = false;
    if (c === QUOTE) {
      // Skip the string, escapes included: brackets inside it are text.
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      justOpened = true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
}
