/** The run's settings, read from the options once (defaults filled in, ranges checked). */
import type { ReplayOptions, VerifyOptions } from '../report.js';
import type { CaseContext } from './case-source.js';
import { DEFAULTS, outOfRange, VERIFY_OPTIONS } from '../options.js';
import { SetupError } from './setup.js';
import { CHECKS, type CheckId } from '../checks/index.js';
import type { RunCredentials } from './auth.js';

export interface Settings {
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  /** An answer is read up to this many bytes (client/http-client.ts). */
  readonly maxAnswerBytes: number;
  /** The whole run's time, when limited (runner/halt.ts). */
  readonly timeBudgetMs: number | undefined;
  readonly concurrency: number;
  readonly strict: boolean;
  readonly expectUniqueIds: boolean;
  /** Run the model property: asked for with `stateful`, or implied by expectUniqueIds. */
  readonly model: boolean;
  /** What the generators are told, the same for every property and operation. */
  readonly caseContext: CaseContext;
  /** The checks left out by --checks / --exclude-checks, with the reason the coverage report gives. */
  readonly excludedChecks: ReadonlyMap<CheckId, string>;
  /** Stop sending at the first failure. */
  readonly failFast: boolean;
  /** Leave what the cases created in the target (no tidying, runner/tidy.ts). */
  readonly keepCreated: boolean;
}

export function settingsOf(options: VerifyOptions): Settings {
  const runs = options.runs ?? DEFAULTS.runs;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULTS.maxAnswerBytes;
  const timeBudgetMs = options.timeBudgetMs;
  const seed = options.seed ?? randomSeed();
  // The ranges of the option table; code may give a fractional timeout, the command line a whole one.
  const wrong =
    outOfRange('runs', VERIFY_OPTIONS.runs, runs) ??
    (Number.isFinite(timeoutMs) && timeoutMs > 0 ? undefined : `the timeout must be a positive number of milliseconds, not ${timeoutMs}`) ??
    outOfRange('concurrency', VERIFY_OPTIONS.concurrency, concurrency) ??
    outOfRange('maxAnswerBytes', VERIFY_OPTIONS.maxAnswerBytes, maxAnswerBytes) ??
    (timeBudgetMs === undefined ? undefined : outOfRange('timeBudgetMs', VERIFY_OPTIONS.timeBudgetMs, timeBudgetMs)) ??
    outOfRange('the seed', VERIFY_OPTIONS.seed, seed);
  if (wrong !== undefined) throw new SetupError(wrong);
  const expectUniqueIds = options.expectUniqueIds === true;
  return {
    excludedChecks: excludedChecksOf(options),
    failFast: options.failFast === true,
    keepCreated: options.keepCreated === true,
    runs,
    seed,
    timeoutMs,
    maxAnswerBytes,
    timeBudgetMs,
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

/** Checks' earlier names, still taken by --checks and --exclude-checks (CI configurations name them). */
const FORMER_NAMES: Readonly<Record<string, CheckId>> = { 'use-after-free': 'deleted-item-gone' };

/** Names from --checks / --exclude-checks ("a,b" or repeated); an unknown name is refused with the known ones. */
function excludedChecksOf(options: VerifyOptions): Map<CheckId, string> {
  const known = CHECKS.map((check) => check.id as string);
  const names = (list: readonly string[] | undefined, flag: string): Set<string> | undefined => {
    if (list === undefined) return undefined;
    const split = list
      .flatMap((item) => item.split(','))
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name) => FORMER_NAMES[name] ?? name);
    const unknown = split.find((name) => !known.includes(name));
    if (unknown !== undefined) throw new SetupError(`${flag}: no check is called "${unknown}"; the checks are ${known.join(', ')}`);
    return new Set(split);
  };
  const only = names(options.checks, '--checks');
  const without = names(options.excludeChecks, '--exclude-checks');
  const excluded = new Map<CheckId, string>();
  for (const check of CHECKS) {
    if (only !== undefined && !only.has(check.id)) excluded.set(check.id, 'not in --checks');
    else if (without?.has(check.id) === true) excluded.set(check.id, 'excluded by --exclude-checks');
  }
  return excluded;
}

/** The settings with the run's credentials, once the document says which schemes they are for. */
export function withCredentials(settings: Settings, credentials: RunCredentials): Settings {
  const { token: _token, ...context } = settings.caseContext;
  const token = credentials.token === undefined ? {} : { token: credentials.token };
  return { ...settings, caseContext: { ...context, ...token, credentials: credentials.given } };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** The options a finding replays only under, as given (the reporters write them as CLI flags). */
export function replayOptionsOf(options: VerifyOptions): ReplayOptions {
  return {
    token: options.token !== undefined || (options.auth ?? []).some((form) => /^(bearer|oauth2|openidconnect):/i.test(form)),
    ...(typeof options.spec === 'string' ? { spec: options.spec } : {}),
    expectUniqueIds: options.expectUniqueIds === true,
    stateful: options.stateful === true,
    tokensValidated: options.tokensValidated === true,
    strict: options.strict === true,
  };
}
