/** The run's settings, read from the options once (defaults filled in, ranges checked). */
import type { ReplayOptions, VerifyOptions } from '../report.js';
import type { CaseContext } from './case-source.js';
import { DEFAULTS, outOfRange, VERIFY_OPTIONS } from '../options.js';
import { SetupError } from './setup.js';

export interface Settings {
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly strict: boolean;
  readonly expectUniqueIds: boolean;
  /** Run the model property: asked for with `stateful`, or implied by expectUniqueIds. */
  readonly model: boolean;
  /** What the generators are told, the same for every property and operation. */
  readonly caseContext: CaseContext;
}

export function settingsOf(options: VerifyOptions): Settings {
  const runs = options.runs ?? DEFAULTS.runs;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const seed = options.seed ?? randomSeed();
  // The ranges of the option table; code may give a fractional timeout, the command line a whole one.
  const wrong =
    outOfRange('runs', VERIFY_OPTIONS.runs, runs) ??
    (Number.isFinite(timeoutMs) && timeoutMs > 0 ? undefined : `the timeout must be a positive number of milliseconds, not ${timeoutMs}`) ??
    outOfRange('concurrency', VERIFY_OPTIONS.concurrency, concurrency) ??
    outOfRange('the seed', VERIFY_OPTIONS.seed, seed);
  if (wrong !== undefined) throw new SetupError(wrong);
  const expectUniqueIds = options.expectUniqueIds === true;
  return {
    runs,
    seed,
    timeoutMs,
    concurrency,
    strict: options.strict === true,
    expectUniqueIds,
    model: options.stateful === true || expectUniqueIds,
    caseContext: {
      token: options.token,
      tokensValidated: options.tokensValidated === true,
      // The document does not forbid properties beyond the schema's: a target must take them.
      extraProperties: true,
    },
  };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** The options a finding replays only under, as given (the reporters write them as CLI flags). */
export function replayOptionsOf(options: VerifyOptions): ReplayOptions {
  return {
    token: options.token !== undefined,
    ...(typeof options.spec === 'string' ? { spec: options.spec } : {}),
    expectUniqueIds: options.expectUniqueIds === true,
    stateful: options.stateful === true,
    tokensValidated: options.tokensValidated === true,
    strict: options.strict === true,
  };
}
