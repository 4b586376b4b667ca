// @ts-check
// POST /plants against its floor in alternating pairs, for issue 21's goal row. The floor is bounded
// by the load generator (autocannon saturates its own core first) and this machine's speed moves by
// up to 2x between minutes, so one floor row and one plantstore row a minute apart can say 0.65 or
// 0.85 of the same build. Each pair runs its two rows back to back (the order alternating from pair
// to pair), and the goal is judged on the median of the pairs' ratios.
import { benchTarget } from './row.mjs';

/** @typedef {import('../targets.mjs').Target} Target */
/** @typedef {{ floor: number, plantstore: number, ratio: number, disturbed: boolean }} Pair */

/**
 * `rounds` more pairs of `floor` and `plantstore` (the rows bench/run.mjs already ran make one more).
 * @param {Parameters<typeof benchTarget>[0]} config
 * @param {Target} floor @param {Target} plantstore @param {number} rounds
 * @param {(line: string) => void} log
 * @returns {Promise<Pair[]>}
 */
export async function benchPostPairs(config, floor, plantstore, rounds, log) {
  /** @type {Pair[]} */
  const pairs = [];
  for (let round = 0; round < rounds; round += 1) {
    log(`[POST pairs] pair ${round + 1}/${rounds}\n`);
    // The main run measured the floor first: the first extra pair starts with plantstore.
    const order = round % 2 === 0 ? [plantstore, floor] : [floor, plantstore];
    /** @type {Record<string, import('./types.js').Row>} */
    const measured = {};
    for (const target of order) measured[target.id] = await benchTarget(config, target);
    const pair = pairOf(measured[floor.id], measured[plantstore.id]);
    if (pair) pairs.push(pair);
  }
  return pairs;
}

/**
 * A floor row and a plantstore row as a pair, or undefined when either did not run.
 * @param {import('./types.js').Row | undefined} floor @param {import('./types.js').Row | undefined} plantstore
 * @returns {Pair | undefined}
 */
export function pairOf(floor, plantstore) {
  if (floor?.status !== 'ok' || plantstore?.status !== 'ok') return undefined;
  return {
    floor: floor.requests.mean,
    plantstore: plantstore.requests.mean,
    ratio: plantstore.requests.mean / floor.requests.mean,
    disturbed: Boolean(floor.disturbed || plantstore.disturbed),
  };
}
