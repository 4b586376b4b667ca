/**
 * Exact JSON: text ↔ value without losing integers. An integer literal a JS number cannot hold
 * (beyond ±(2^53 − 1)) is read as a bigint, and a bigint is written digit for digit, so
 * 9007199254740993 survives the round trip. lossless-json does the reading and writing; this module
 * pins the choices every caller would otherwise repeat: which numbers become bigint, a repeated key
 * keeps its first place and its last value (as JSON.parse), a nesting limit, and no silent `null`
 * for a non-finite number. It is pure and knows nothing of the suite, so that it can move as it is
 * into a core shared with the server.
 */
import { parse, stringify, type NumberStringifier } from 'lossless-json';

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

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
  // lossless-json throws on a repeated key with a different value unless told otherwise; JSON.parse
  // keeps the last value (an equal one lossless-json stores itself, also in the key's first place).
  return parse(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue }) as JsonValue;
}

/**
 * The exact JSON text of `value`: bigint as its decimal digits (never through a number), strings
 * escaped as JSON.stringify escapes them, object keys in their order. A non-finite number has no
 * JSON form and throws a RangeError instead of silently becoming null.
 */
export function toJsonText(value: JsonValue): string {
  const text = stringify(value, null, undefined, REFUSE_NON_FINITE);
  if (text === undefined) throw new TypeError(`${String(value)} is not a JSON value`);
  return text;
}

const INTEGER_LITERAL = /^-?\d+$/;

/** A JSON number's text as a value: a bigint when it is an integer literal no JS number holds exactly. */
function exactNumber(text: string): number | bigint {
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
