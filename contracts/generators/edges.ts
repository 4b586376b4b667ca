/**
 * Edge-value tables: the values that break implementations. Generation leans on them (mixed into
 * the general arbitraries, filtered by the schema), and boundary-cases.ts sends EDGE_STRINGS on
 * every run.
 */
import { INT64 } from './schema/integer-formats.js';

const TWO_53 = 2n ** 53n;
const TWO_31 = 2n ** 31n;
const TWO_32 = 2n ** 32n;

/** Integers that break implementations: 0/±1, the int32 and 2^53 edges, the int64 extremes. */
export const INTEGER_EDGES: readonly bigint[] = [
  0n,
  -1n,
  1n,
  TWO_53 - 1n,
  TWO_53,
  TWO_53 + 1n,
  -(TWO_53 - 1n),
  -TWO_53,
  -(TWO_53 + 1n),
  INT64.max,
  INT64.min,
  INT64.max - 1n,
  INT64.min + 1n,
  TWO_31 - 1n,
  TWO_31,
  -TWO_31,
  -TWO_31 - 1n,
  TWO_32,
  TWO_32 - 1n,
  255n,
  256n,
  65535n,
  65536n,
  10n ** 15n,
  10n ** 18n,
];

/** Doubles that break implementations: fractions, denormals, 2^53 and beyond, the largest finite double. */
export const NUMBER_EDGES: readonly number[] = [
  0,
  1,
  -1,
  0.5,
  -0.5,
  0.1,
  -1.5,
  1e-7,
  5e-324,
  -5e-324,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  123456789.123456789,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.EPSILON,
];

/**
 * Whole strings that break implementations, simplest first (constantFrom shrinks towards the front):
 * empty, whitespace-only, emoji (surrogate pairs, ZWJ sequences, flags), NUL and control characters,
 * quotes and backslashes, right-to-left and combining marks, injection-looking text.
 */
export const EDGE_STRINGS: readonly string[] = [
  '',
  'a',
  ' ',
  '🌱',
  '\u0000',
  '"',
  '\\',
  "'",
  'é',
  'e\u0301',
  '\t',
  '\n',
  '   ',
  ' \t\r\n',
  '\u00a0',
  '\u3000',
  'a\u0000b',
  '"\'\\/',
  '\\u0000',
  'שלום עולם',
  'مرحبا بالعالم',
  'abc\u202edef',
  '😀🌵🪴',
  '👩\u200d👩\u200d👧\u200d👦',
  '🇯🇵',
  'Z\u0351\u0352\u0353\u0354\u0355',
  '\u2028\u2029',
  '\ufeff',
  '\u0001\u001f\u007f',
  '𝐀𝐁𝐂',
  'Ünïcödé Ⅻ ß ﬁ',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${jndi:ldap://x}',
  '%00%s%n',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '9007199254740993',
  'NaN',
];

/** Single code points that break implementations, mixed into generated strings. */
export const EDGE_UNITS: readonly string[] = [
  ' ',
  '"',
  '\\',
  '\u0000',
  '🌱',
  '😀',
  '\u05d0',
  '\u0627',
  '\u0301',
  '\u200d',
  '\u2028',
  '\ufeff',
  '\n',
  '\t',
  'é',
  '\u202e',
  '𝐀',
  '\u007f',
];

/** Keys that break implementations when a server turns bodies into plain objects or maps. */
export const EDGE_KEYS: readonly string[] = [
  'extra',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'ключ',
  '🔑',
  'a.b',
  '$where',
  '\u0000',
];
