/**
 * Ids that a stateful target cannot already hold.
 *
 * The target keeps what earlier runs stored, and a replay (same seed) generates the same ids
 * again, so a valid create whose id is sent as generated may be refused as a duplicate. Rule:
 *   - an id whose magnitude has 42 bits or more gets its low 40 bits drawn at random for each
 *     request (sign and magnitude stay, so a size-dependent fault still shows): "fresh";
 *   - smaller ids and edge values (0, ±1, 2^53 and neighbours, the int64 extremes) are sent as
 *     generated, because they are the point of the case: "literal", possibly used before;
 *   - the duplicate-ids and stateful-model scenarios draw their ids fresh (`freshIdWithin`,
 *     `freshNeighbourBase`).
 * Ids of other types (a uuid, a string within its rules): identifier.ts, string-ids.ts.
 * A refused create is then told apart by a retry with a fresh id (see positive-acceptance).
 */
import { randomBytes } from 'node:crypto';
import { INT64_MAX, INT64_MIN } from '../../src/core/json/int64.js';

export { INT64_MAX, INT64_MIN };

const RANDOM_BITS = 40n;
const RANDOM_MASK = (1n << RANDOM_BITS) - 1n;
const MIN_FRESH_BITS = 42;
/** Powers of two whose neighbours are edge values kept literal. */
const EDGES = [31n, 32n, 53n, 63n].map((bits) => 2n ** bits);

export type Random64 = () => bigint;

/** Random bytes drawn 8 KiB at a time: one system call per 1,024 ids instead of one per id. */
const POOL_BYTES = 8192;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

/** 64 unpredictable bits: ids must differ between runs with the same seed, so not from the seed. */
export const cryptoRandom64: Random64 = () => {
  if (offset + 8 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const value = pool.readBigUInt64BE(offset);
  offset += 8;
  return value;
};

export interface SentId {
  readonly value: bigint;
  readonly freshness: 'fresh' | 'literal';
}

export function bitLength(value: bigint): number {
  return (value < 0n ? -value : value).toString(2).length;
}

/** Edge values worth sending as they are: near 0, near a power-of-two boundary, the int64 extremes. */
export function isEdgeId(id: bigint): boolean {
  const magnitude = id < 0n ? -id : id;
  if (bitLength(id) < MIN_FRESH_BITS) return true;
  return EDGES.some((edge) => magnitude >= edge - 2n && magnitude <= edge + 2n) || id === INT64_MAX || id === INT64_MIN;
}

/** The id to send for a generated one (see the rule above). */
export function freshen(id: bigint, random: Random64): SentId {
  if (id < INT64_MIN || id > INT64_MAX || isEdgeId(id)) return { value: id, freshness: 'literal' };
  const magnitude = id < 0n ? -id : id;
  const value = ((magnitude >> RANDOM_BITS) << RANDOM_BITS) | (random() & RANDOM_MASK);
  return { value: id < 0n ? -value : value, freshness: 'fresh' };
}

/** A never-used id in [2^61, 2^62) (negated when `negative`): 61 random bits. */
export function freshId(random: Random64, negative = false): bigint {
  const value = (1n << 61n) | (random() & ((1n << 61n) - 1n));
  return negative ? -value : value;
}

/**
 * A fresh base B in [2^53 + 2^12, 2^62) that is a multiple of 2^12: B and B±1 are distinct
 * int64 values that round to the same double, so a target that keeps ids as JS numbers
 * takes B±1 for B.
 */
export function freshNeighbourBase(random: Random64): bigint {
  const span = (1n << 62n) - (1n << 53n) - (1n << 13n);
  const offset = (random() % span) & ~((1n << 12n) - 1n);
  return (1n << 53n) + (1n << 12n) + offset;
}

/**
 * The ids a run may draw for one resource: the identifier's type (int32, the schema's bounds)
 * narrowed by what the target turned out to take (a target that refuses ids ≥ 2^53 gets smaller
 * ones, see evidence.ts). Mutable: the run narrows it once, every later draw follows.
 */
export interface IdSpace {
  min: bigint;
  max: bigint;
}

const FRESH_TOP = (1n << 62n) - 1n;

/** A never-used id within `space` (negated when `negative` and the space has room below zero). */
export function freshIdWithin(random: Random64, space: IdSpace | undefined, negative = false): bigint {
  if (space === undefined || (space.max >= FRESH_TOP && space.min <= -FRESH_TOP)) return freshId(random, negative);
  const top = negative && space.min < 0n ? -space.min : space.max;
  if (space.max >= FRESH_TOP && !negative) return freshId(random);
  // The upper half of the range: as many distinct values as it has, far from 0 and the small ids people type.
  const low = top > 3n ? top / 2n : 1n;
  const span = top - low + 1n;
  const value = low + (span > 0n ? random() % span : 0n);
  return negative && space.min < 0n ? -value : value;
}
