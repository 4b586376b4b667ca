/**
 * Strings within the schema's length (in code points) and pattern, leaning on the edge strings and
 * edge code points; a known format is generated as such.
 */
import fc from 'fast-check';
import { passing } from '../_internals/passing.js';
import { EDGE_STRINGS, EDGE_UNITS } from '../edges.js';
import type { JsonValue } from '../json-value.js';
import { SchemaError } from '../schema/json-schema.js';
import { codePointLength } from '../schema/satisfies.js';
import type { Shape } from '../schema/shape.js';
import { CODE_POINT } from './code-point.js';
import { STRING_FORMATS } from './string-formats.js';

// Every unit is one code point, so fast-check's length equals JSON Schema's (code points, as ajv counts).
export const UNIT = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: CODE_POINT },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_UNITS) },
);

const LONG = 1000;
const LONGEST = 5000;

export function stringArbitrary(shape: Shape): fc.Arbitrary<JsonValue> {
  const minLength = shape.minLength;
  const maxLength = shape.maxLength;
  if (maxLength !== undefined && maxLength < minLength) throw new SchemaError(`minLength ${minLength} exceeds maxLength ${maxLength}`);
  const ok = (s: string): boolean => {
    const n = codePointLength(s);
    return n >= minLength && (maxLength === undefined || n <= maxLength) && shape.patterns.every((re) => re.test(s));
  };
  const constrained = minLength > 0 || maxLength !== undefined || shape.patterns.length > 0;
  const format = [...shape.formats].find((f) => f in STRING_FORMATS);
  if (format !== undefined) {
    const formatted = (STRING_FORMATS[format] as () => fc.Arbitrary<string>)();
    return constrained ? passing(formatted, ok, `a ${format} string within the length/pattern constraints`) : formatted;
  }

  const edges = EDGE_STRINGS.filter(ok);
  const [firstPattern] = shape.patterns;
  let general: fc.Arbitrary<string>;
  if (firstPattern !== undefined) {
    const cap = maxLength ?? Math.max(2 * minLength, minLength + 64);
    const matching = stringMatching(firstPattern, cap, minLength > 8 ? 'max' : 'small');
    try {
      general = passing(matching ?? fc.string({ unit: UNIT, minLength, maxLength: cap }), ok, `a string matching ${firstPattern.source}`);
    } catch (error) {
      if (edges.length === 0) throw error;
      return fc.constantFrom(...edges);
    }
  } else {
    general = fc.string({ unit: UNIT, minLength, ...(maxLength === undefined ? {} : { maxLength }) });
  }
  const branches: Array<fc.WeightedArbitrary<string>> = [{ weight: 30, arbitrary: general }];
  if (edges.length > 0) branches.push({ weight: 15, arbitrary: fc.constantFrom(...edges) });
  // Thousands of characters, still shrinkable down to minLength (a constant would not shrink). Rare:
  // each costs thousands of draws, and the boundary cases send a 10,000-character string every run.
  if (firstPattern === undefined && (maxLength === undefined || maxLength >= LONG)) {
    branches.push({ weight: 1, arbitrary: fc.string({ unit: UNIT, minLength, maxLength: Math.min(maxLength ?? LONGEST, LONGEST), size: 'max' }) });
  }
  const [first, ...rest] = branches;
  return rest.length === 0 ? general : fc.oneof(first as fc.WeightedArbitrary<string>, ...rest);
}

/** fast-check's stringMatching by pattern and constraints (null where it cannot read the pattern). */
const matchings = new Map<string, fc.Arbitrary<string> | null>();
/** Bounds the cache of a process that verifies document after document. */
const MATCHINGS_KEPT = 1000;

/**
 * fast-check's stringMatching, built once per pattern and constraints: a build tries its character
 * classes on fast-check's list of dangerous strings, throwing and catching at each failed try
 * (about 30 ms for `^WT[0-9a-fA-F]{32}$`), and real documents repeat one pattern in every
 * operation's parameter (Twilio's SIDs: 1.1 of a 2.3 s plan).
 */
function stringMatching(pattern: RegExp, maxLength: number, size: 'max' | 'small'): fc.Arbitrary<string> | undefined {
  const key = `${pattern.flags}/${maxLength}/${size}/${pattern.source}`;
  let matching = matchings.get(key);
  if (matching === undefined) {
    try {
      matching = fc.stringMatching(pattern, { maxLength, size });
    } catch {
      // fast-check cannot read every regex (lookahead, \b, backreferences): fall back to filtering plain strings.
      matching = null;
    }
    if (matchings.size >= MATCHINGS_KEPT) matchings.clear();
    matchings.set(key, matching);
  }
  return matching ?? undefined;
}
