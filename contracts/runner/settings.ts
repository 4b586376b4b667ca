/** The run's settings, read from the options once (defaults filled in, ranges checked). */
import type { ReplayOptions, VerifyOptions } from '../report.js';
import type { CaseContext } from './case-source.js';
import { DEFAULTS } from './defaults.js';
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
  if (!Number.isSafeInteger(runs) || runs < 1) throw new SetupError(`runs must be a whole number of at least 1, not ${runs}`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new SetupError(`the timeout must be a positive number of milliseconds, not ${timeoutMs}`);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 1024) throw new SetupError(`concurrency must be a whole number from 1 to 1024, not ${concurrency}`);
  // fast-check seeds are 32-bit; larger ones would be silently truncated and not replay as printed.
  if (!Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 32) throw new SetupError(`the seed must be a 32-bit whole number, not ${seed}`);
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
      ...(options.token === undefined ? {} : { token: options.token }),
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
