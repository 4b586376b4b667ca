/**
 * A string drawn to match a server-made identifier's pattern (fast-check's stringMatching), seeded
 * from the allocation sequence number: the same number gives the same value, so two replicas on
 * one store, each drawing for the number it was given, never collide by drawing at random. Loaded
 * by string-key.ts only when a pattern refuses the plain decimal: fast-check costs a start nothing.
 */
import fc from 'fast-check';
import type { PatternTest } from '../../core/regexp/pattern.js';
import type { StringRules } from '../../core/resources/model.js';
import { keepsStringRules } from '../../core/schema/string-length.js';

/** fast-check's `+` and `*` are unbounded: a cap keeps a draw short (as verify's string ids do). */
const LONGEST = 64;
/** Draws tried for one number before giving up: lengths the pattern's draws rarely keep. */
const DRAWS = 16;
/** Built once per pattern and bound: a build costs milliseconds (about 30 for `^WT[0-9a-fA-F]{32}$`). */
const arbitraries = new Map<string, fc.Arbitrary<string> | null>();
/** Bounds the cache of a server that reloads document after document (--watch). */
const KEPT = 1000;

/**
 * A value matching `pattern` within the lengths, the same for the same (sequence, scope); undefined
 * when none came. `unreadable` where fast-check cannot read the pattern (lookahead, `\b`,
 * backreferences): the caller keeps the plain value, as serve did before it drew, rather than refuse
 * every create of the resource.
 */
export function drawMatching(pattern: RegExp, matches: PatternTest, rules: StringRules, sequence: bigint, scope: string): string | undefined | 'unreadable' {
  const arbitrary = arbitraryOf(pattern, Math.min(rules.maxLength ?? LONGEST, LONGEST));
  if (arbitrary === null) return 'unreadable';
  for (let draw = 0; draw < DRAWS; draw++) {
    const [value] = fc.sample(arbitrary, { seed: seedOf(sequence, scope, draw), numRuns: 1 });
    if (value !== undefined && keepsStringRules(value, rules, matches)) return value;
  }
  return undefined;
}

function arbitraryOf(pattern: RegExp, maxLength: number): fc.Arbitrary<string> | null {
  const key = `${pattern.flags}/${maxLength}/${pattern.source}`;
  let arbitrary = arbitraries.get(key);
  if (arbitrary === undefined) {
    try {
      // Unbiased: the bias towards small values would draw the same few strings for many numbers.
      arbitrary = fc.noBias(fc.stringMatching(pattern, { maxLength }));
    } catch {
      arbitrary = null; // a regex fast-check cannot read (lookahead, backreferences)
    }
    if (arbitraries.size >= KEPT) arbitraries.clear();
    arbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

/** A 32-bit seed mixing the number, the scope and the draw (FNV-1a over their text). */
function seedOf(sequence: bigint, scope: string, draw: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${sequence}\u0000${scope}\u0000${draw}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
