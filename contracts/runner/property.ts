/**
 * A property: a fast-check arbitrary and what to do with one generated value. It is run in two
 * ways that see the very same values for a seed:
 *   - `cases(seed, from, count)`: runs from..from+count-1 sampled (fast-check derives run i's
 *     random generator from the seed alone, so a slice is drawn without drawing what precedes
 *     it), to be fired concurrently through the Pool while the next slice is drawn;
 *   - `shrink(seed, path)`: fast-check itself from one run's path, shrinking a failure to a
 *     minimal request (fc.sample and fc.check draw run i from the same seed identically).
 */
import fc from 'fast-check';
import type { Exchange } from '../checks/index.js';
import type { RunEnv } from './send.js';

export type Execution = (env: RunEnv) => Promise<Exchange[]>;

export interface ShrinkResult {
  /** The exchanges of the minimal failing value. */
  readonly exchanges: readonly Exchange[];
  /** fast-check's path to it: `--seed <seed> --replay <property>:<path>` reproduces it. */
  readonly path: string;
  /** The time limit stopped shrinking before it was done (the case is smaller, perhaps not minimal). */
  readonly interrupted: boolean;
}

export interface Property {
  readonly name: string;
  readonly numRuns: number;
  /** About how many requests one run sends, for the progress estimate. */
  readonly requestsPerRun: number;
  cases(seed: number, from: number, count: number): Execution[];
  /** Replays run `path` and shrinks it while `stillFails` holds; undefined when it no longer fails. */
  shrink(
    seed: number,
    path: string,
    env: RunEnv,
    stillFails: (exchanges: readonly Exchange[]) => boolean,
    timeLimitMs: number,
  ): Promise<ShrinkResult | undefined>;
  /** The exchanges of the one value at `path` (a replay, without shrinking). */
  replay(seed: number, path: string, env: RunEnv): Promise<Exchange[]>;
}

/** Runs one value as a case (runCase). */
function within<T>(execute: (value: T, env: RunEnv) => Promise<Exchange[]>): (value: T, env: RunEnv) => Promise<Exchange[]> {
  return (value, env) => runCase(env, (inner) => execute(value, inner), value);
}

/**
 * Runs one case inside the env's `around` (owned-items.ts: the items a write names are created
 * first, deleted after) and deletes what the case created (env.tidy) inside it too: what a case
 * made under an item the run made for it goes before that item. Tidied after `around`, a user
 * made under a cluster was deleted after its cluster: a server that refuses to delete a cluster
 * with users (409) kept both, and one that deletes them with it answered the user's delete 404.
 */
export function runCase(env: RunEnv, run: Execution, value?: unknown): Promise<Exchange[]> {
  const tidy = env.tidy;
  const tidied: Execution =
    tidy === undefined
      ? run
      : async (inner) => {
          const exchanges = await run(inner);
          await tidy(exchanges);
          return exchanges;
        };
  return env.around === undefined ? tidied(env) : env.around(env, tidied, value);
}

export function defineProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  numRuns: number,
  requestsPerRun: number,
  run: (value: T, env: RunEnv) => Promise<Exchange[]>,
): Property {
  const execute = within(run);
  /** The exchanges of the one value at `path` (a replay, without shrinking). */
  async function replayAt(seed: number, path: string, env: RunEnv): Promise<Exchange[]> {
    let seen: Exchange[] | undefined;
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        seen ??= await execute(value, env);
        return true;
      }),
      { seed, path, numRuns: 1 },
    );
    if (details.errorInstance) throw details.errorInstance;
    return seen ?? [];
  }
  return {
    name,
    numRuns,
    requestsPerRun,
    cases: (seed, from, count) =>
      fc.sample(arbitrary, { seed, numRuns: count, ...(from > 0 ? { path: String(from) } : {}) }).map((value) => (env: RunEnv) => execute(value, env)),
    async shrink(seed, path, env, stillFails, timeLimitMs) {
      let smallest: Exchange[] | undefined;
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          const exchanges = await execute(value, env);
          if (!stillFails(exchanges)) return true;
          smallest = exchanges;
          return false;
        }),
        { seed, path, numRuns: 1, interruptAfterTimeLimit: timeLimitMs },
      );
      if (!details.failed) return undefined;
      // A failure that is not ours (the property threw): a bug in the suite, not in the target.
      if (smallest === undefined) throw details.errorInstance ?? new Error(`shrinking ${name} failed without a counterexample`);
      return { exchanges: smallest, path: details.counterexamplePath ?? path, interrupted: details.interrupted };
    },
    replay: replayAt,
  };
}

/**
 * A property over a fixed list instead of an arbitrary: run i is value i, every value on every run.
 * Nothing to shrink (each value is already one boundary), so `shrink` and `replay` re-send value `path`.
 */
export function defineEnumeration<T>(
  name: string,
  values: readonly T[],
  requestsPerRun: number,
  run: (value: T, env: RunEnv) => Promise<Exchange[]>,
): Property {
  const execute = within(run);
  const at = (path: string): T | undefined => values[Number(path.split(':')[0])];
  return {
    name,
    numRuns: values.length,
    requestsPerRun,
    cases: (_seed, from, count) => values.slice(from, from + count).map((value) => (env: RunEnv) => execute(value, env)),
    async shrink(_seed, path, env, stillFails) {
      const value = at(path);
      if (value === undefined) return undefined;
      const exchanges = await execute(value, env);
      return stillFails(exchanges) ? { exchanges, path, interrupted: false } : undefined;
    },
    async replay(_seed, path, env) {
      const value = at(path);
      return value === undefined ? [] : execute(value, env);
    },
  };
}
