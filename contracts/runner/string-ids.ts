/**
 * Fresh values for a client-assigned string identifier (a sku, a slug): the string side of ids.ts.
 *   - a never-used value: random characters from [a-z0-9], 16 of them (82 bits), more where
 *     minLength asks, fewer where maxLength allows, but never fewer than 8 (41 bits, as the 40
 *     random bits of an integer id); where the pattern refuses such a string, a value drawn to match
 *     the pattern (fast-check's stringMatching, seeded from the unpredictable bits, not the run's seed);
 *   - a generated value of 12 code points or more keeps its length and its first code points, and gets
 *     its last 10 drawn at random ("fresh"), so a fault that depends on its length or its characters
 *     still shows; a shorter one ("", "🌱", "a") is the case's point and is sent as generated ("literal").
 * Where no never-used value can be drawn (maxLength under 8, a format other than uuid, an enum or
 * const, a pattern whose values repeat), `unfreshable` says why, and nothing is freshened.
 */
import fc from 'fast-check';
import { patternRegExp } from '../../src/core/regexp/pattern.js';
import { codePointLength, keepsStringRules } from '../../src/core/schema/string-length.js';
import type { Random64 } from './ids.js';

export interface StringIdRules {
  readonly minLength: number;
  readonly maxLength?: number | undefined;
  readonly pattern?: RegExp | undefined;
}

export type StringIdSchema = { readonly rules: StringIdRules } | { readonly unfreshable: string };

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PREFERRED_LENGTH = 16;
const MIN_RANDOM = 8;
const TAIL = 10;
const MIN_FRESHENED = 12;
/** Values a pattern must yield, all different, before its draws are trusted to be never used. */
const VARIETY_SAMPLE = 512;
const MATCHING_CAP = 64;

/** The rules a fresh value must keep, read from the identifier property's schema; or why none can be drawn. */
export function stringIdSchema(name: string, schema: unknown): StringIdSchema {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) || s.const !== undefined) return { unfreshable: `${name} is an enum: every value may be held already` };
  if (typeof s.format === 'string') return { unfreshable: `${name} has format "${s.format}", which the suite draws no never-used value for` };
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  if (maxLength !== undefined && maxLength < MIN_RANDOM) {
    return { unfreshable: `${name} has maxLength ${maxLength}: too few values to draw one no earlier run used (${MIN_RANDOM} characters needed)` };
  }
  let pattern: RegExp | undefined;
  if (typeof s.pattern === 'string') {
    pattern = patternRegExp(s.pattern);
    if (pattern === undefined) return { unfreshable: `${name}'s pattern ${JSON.stringify(s.pattern)} is not a regular expression the suite reads` };
  }
  const rules: StringIdRules = { minLength, maxLength, pattern };
  if (pattern !== undefined && !variedEnough(rules)) {
    return { unfreshable: `${name}'s pattern ${JSON.stringify(s.pattern)} yields too few different values to draw one no earlier run used` };
  }
  return { rules };
}

/** Length in code points, as JSON Schema counts it. */
export const codePoints = codePointLength;

export function keepsRules(value: string, rules: StringIdRules): boolean {
  return keepsStringRules(value, rules, rules.pattern);
}

function randomChars(count: number, random: Random64): string {
  let text = '';
  for (let i = 0; i < count; i += 1) text += ALPHABET[Number(random() % BigInt(ALPHABET.length))];
  return text;
}

/** A never-used value that keeps the rules, or undefined when none could be drawn. */
export function freshString(rules: StringIdRules, random: Random64): string | undefined {
  const length = Math.max(MIN_RANDOM, rules.minLength, Math.min(PREFERRED_LENGTH, rules.maxLength ?? PREFERRED_LENGTH));
  const plain = randomChars(length, random);
  if (keepsRules(plain, rules)) return plain;
  return rules.pattern === undefined ? undefined : matching(rules, random);
}

/** The arbitrary of values matching the pattern (at most 64 code points: `+` unbounded runs out of memory), or undefined. */
function matchingArbitrary(rules: StringIdRules): fc.Arbitrary<string> | undefined {
  if (rules.pattern === undefined) return undefined;
  try {
    // Unbiased: fast-check's bias towards small values would draw the same short strings again and again.
    return fc.noBias(fc.stringMatching(rules.pattern, { size: 'large', maxLength: Math.min(rules.maxLength ?? MATCHING_CAP, MATCHING_CAP) }));
  } catch {
    return undefined; // a regex fast-check cannot read (lookahead, backreferences)
  }
}

/** A matching value worth sending as never used: within the rules, and long enough not to be drawn twice. */
function usable(value: string, rules: StringIdRules): boolean {
  return codePoints(value) >= MIN_RANDOM && keepsRules(value, rules);
}

/** Drawn values not sent yet, per rules: fast-check draws a batch at a time far faster than one by one. */
const pools = new WeakMap<StringIdRules, string[]>();
const arbitraries = new WeakMap<StringIdRules, fc.Arbitrary<string> | null>();
const BATCH = 32;

/** A value drawn to match the pattern (the batch from a seed of unpredictable bits), or undefined when none came. */
function matching(rules: StringIdRules, random: Random64): string | undefined {
  let arbitrary = arbitraries.get(rules);
  if (arbitrary === undefined) {
    arbitrary = matchingArbitrary(rules) ?? null;
    arbitraries.set(rules, arbitrary);
  }
  if (arbitrary === null) return undefined;
  let pool = pools.get(rules);
  for (let attempt = 0; attempt < 4 && (pool === undefined || pool.length === 0); attempt += 1) {
    const seed = Number(BigInt.asIntN(32, random()));
    pool = fc.sample(arbitrary, { seed, numRuns: BATCH }).filter((value) => usable(value, rules));
    pools.set(rules, pool);
  }
  return pool?.pop();
}

/**
 * Whether a pattern's values are varied enough to be taken as never used: plain random strings fit
 * it, or 512 draws give enough usable values, all different. ^[A-Z]{3}$ (17,576 values) is not;
 * ^PS-[0-9a-f]{8}$ (2^32) is. Drawn from a fixed seed: the verdict on a document never changes.
 */
function variedEnough(rules: StringIdRules): boolean {
  let state = 0x2545f4914f6cdd1dn;
  const fixed: Random64 = () => {
    state = BigInt.asUintN(64, state * 6364136223846793005n + 1442695040888963407n);
    return state >> 1n;
  };
  const length = Math.max(MIN_RANDOM, rules.minLength, Math.min(PREFERRED_LENGTH, rules.maxLength ?? PREFERRED_LENGTH));
  if (Array.from({ length: 8 }, () => randomChars(length, fixed)).every((plain) => keepsRules(plain, rules))) return true;
  const arbitrary = matchingArbitrary(rules);
  if (arbitrary === undefined) return false;
  const drawn = fc.sample(arbitrary, { seed: 20_261_123, numRuns: VARIETY_SAMPLE }).filter((value) => usable(value, rules));
  return drawn.length >= VARIETY_SAMPLE / 4 && new Set(drawn).size === drawn.length;
}

/** The value to send for a generated one (see the rule above). */
export function freshenString(value: string, rules: StringIdRules, random: Random64): { value: string; freshness: 'fresh' | 'literal' } {
  const points = [...value];
  if (points.length < MIN_FRESHENED) return { value, freshness: 'literal' };
  const candidate = points.slice(0, points.length - TAIL).join('') + randomChars(TAIL, random);
  return keepsRules(candidate, rules) ? { value: candidate, freshness: 'fresh' } : { value, freshness: 'literal' };
}
