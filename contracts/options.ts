/**
 * Every `verify` option, declared once: the CLI's flags and --help (src/cli/verify.ts), the
 * CONTRACT_* environment of the vitest route (contracts/conformance.test.ts), the defaults and the
 * ranges `verify()` checks (runner/settings.ts). Machinery: src/core/options.ts. Light on purpose:
 * `plantstore verify --help` loads this and nothing heavy.
 */
import { describeEntry, renderOptionsHelp, type OptionEntry, type OptionTable, type OptionValues } from '../src/core/options.js';

export const VERIFY_OPTIONS = {
  /** Base URL of the server under test, e.g. http://127.0.0.1:4010 */
  target: {
    type: 'string',
    flag: 'target',
    argument: 'URL',
    env: 'CONTRACT_TARGET',
    help: 'base URL of the server under test (required), e.g. http://127.0.0.1:4010',
  },
  /** Bearer token sent with valid requests. */
  token: {
    type: 'string',
    flag: 'token',
    argument: 'T',
    env: 'CONTRACT_TOKEN',
    help: 'bearer token for valid requests (default: a fixed test token); never written to a report',
  },
  /** Credentials for the document's other schemes (and bearer), read against its securitySchemes (runner/auth.ts). */
  auth: {
    type: 'strings',
    flag: 'auth',
    argument: 'FORM',
    help: 'credentials: bearer:<token>, basic:<user>:<password> or apikey:<scheme>=<key>\n(repeatable; also CONTRACT_AUTH, CONTRACT_BASIC_AUTH, CONTRACT_API_KEY[_<SCHEME>])',
  },
  /** Sent on every request; a credential's value (Authorization, Cookie, API key headers) is never written down. */
  header: { type: 'strings', flag: 'header', argument: "'N: V'", help: 'a header sent on every request (repeatable); credential values are masked' },
  spec: { type: 'string', flag: 'spec', argument: 'FILE', env: 'CONTRACT_SPEC', help: 'OpenAPI document (default: the bundled Plant Store example)' },
  /** fast-check runs per property. */
  runs: { type: 'integer', flag: 'runs', argument: 'N', env: 'CONTRACT_RUNS', min: 1, default: 200, help: 'runs per property (default {default})' },
  /** fast-check seed (32-bit); random by default, always reported. */
  // fast-check seeds are 32-bit; larger ones would be silently truncated and not replay as printed.
  seed: {
    type: 'integer',
    flag: 'seed',
    argument: 'S',
    env: 'CONTRACT_SEED',
    min: -(2 ** 31),
    max: 2 ** 32 - 1,
    help: 'fast-check seed (default: random; always printed)',
  },
  /** fast-check replay path of a failure (with its seed). */
  replay: { type: 'string', flag: 'replay', argument: 'PATH', help: 'replay one case: the path printed with a finding (use with its --seed)' },
  /** Per-request timeout. */
  timeoutMs: {
    type: 'integer',
    flag: 'timeout-ms',
    argument: 'MS',
    env: 'CONTRACT_TIMEOUT_MS',
    min: 1,
    default: 5_000,
    help: 'per-request timeout (default {default})',
  },
  /** An answer's body is read up to this; a larger one is cut off, a finding (memory stays bounded against any target). */
  maxAnswerBytes: {
    type: 'integer',
    flag: 'max-answer-bytes',
    argument: 'N',
    env: 'CONTRACT_MAX_ANSWER_BYTES',
    min: 1,
    max: 256 * 1024 * 1024,
    default: 8 * 1024 * 1024,
    help: 'read at most N bytes of an answer; a larger one is a finding (default {default})',
  },
  /** The whole run's time: when spent, no further case is sent and the report says the run is incomplete (not a pass). */
  timeBudgetMs: {
    type: 'integer',
    flag: 'time-budget-ms',
    argument: 'MS',
    env: 'CONTRACT_TIME_BUDGET_MS',
    min: 1,
    help: 'end the run after MS with a verdict: incomplete, exit 3 (default: no limit)',
  },
  /** Requests in flight at once (undici Pool connections). */
  concurrency: {
    type: 'integer',
    flag: 'concurrency',
    argument: 'C',
    env: 'CONTRACT_CONCURRENCY',
    min: 1,
    max: 1024,
    default: 16,
    help: 'requests in flight at once (default {default})',
  },
  /** Warnings become failures. */
  strict: { type: 'boolean', flag: 'strict', env: 'CONTRACT_STRICT', default: false, help: 'warnings (answers the document is silent about) fail too' },
  /** The target must refuse a stored id again (and so keep int64 ids exact). */
  expectUniqueIds: {
    type: 'boolean',
    flag: 'expect-unique-ids',
    env: 'CONTRACT_EXPECT_UNIQUE_IDS',
    default: false,
    help: 'the target must refuse an id it already holds (turns on --stateful)',
  },
  /** Run the model-based sequence check (on by default when expectUniqueIds). */
  stateful: { type: 'boolean', flag: 'stateful', env: 'CONTRACT_STATEFUL', help: 'run the model-based sequences of creates (new, repeated and invalid ids)' },
  /** The target refuses tokens it does not know: send a bogus token too. */
  tokensValidated: {
    type: 'boolean',
    flag: 'tokens-validated',
    env: 'CONTRACT_TOKENS_VALIDATED',
    default: false,
    help: 'the target refuses unknown credentials (tokens, API keys, passwords): send wrong ones too',
  },
  /** Only these checks judge (and are reported); names from the checks' registry. */
  checks: { type: 'strings', flag: 'checks', argument: 'A,B', help: 'run only these checks (comma-separated names; an unknown one is refused\nwith the list)' },
  excludeChecks: { type: 'strings', flag: 'exclude-checks', argument: 'A,B', help: 'leave these checks out (comma-separated names)' },
  failFast: {
    type: 'boolean',
    flag: 'fail-fast',
    env: 'CONTRACT_FAIL_FAST',
    default: false,
    help: 'stop sending at the first failure (it is still shrunk and reported)',
  },
  /** Tidying (runner/tidy.ts) off: every item the run created stays in the target. */
  keepCreated: {
    type: 'boolean',
    flag: 'keep-created',
    env: 'CONTRACT_KEEP_CREATED',
    default: false,
    help: 'leave what the run created in the target (by default each item a case created\nis deleted again once judged, where the document has a delete)',
  },
  dryRun: { type: 'boolean', flag: 'dry-run', default: false, help: 'print the plan (operations, cases, checks, what is skipped and why); send nothing' },
  junit: { type: 'string', flag: 'junit', argument: 'FILE', inConfig: false, help: 'write a JUnit XML report' },
  json: { type: 'string', flag: 'json', argument: 'FILE', inConfig: false, help: 'write the report as JSON' },
  emitRegressions: { type: 'string', flag: 'emit-regressions', argument: 'DIR', inConfig: false, help: 'write each failure as a runnable vitest file' },
  help: { type: 'boolean', flag: 'help', short: 'h', inConfig: false, help: 'show this help' },
} as const satisfies OptionTable;

/** The options of a run (the rest are the CLI's: report files and --help). */
export type RunOptionValues = Omit<OptionValues<typeof VERIFY_OPTIONS>, 'junit' | 'json' | 'emitRegressions' | 'help'>;

/** How a verify option is refused: `--runs takes a whole number of at least 1, not "many"`. */
export const VERIFY_VERB = 'takes';

export const DEFAULTS = {
  runs: VERIFY_OPTIONS.runs.default,
  timeoutMs: VERIFY_OPTIONS.timeoutMs.default,
  maxAnswerBytes: VERIFY_OPTIONS.maxAnswerBytes.default,
  concurrency: VERIFY_OPTIONS.concurrency.default,
} as const;

/** Whether a number given to verify() in code is in the entry's range; the message if not. */
export function outOfRange(name: string, entry: OptionEntry, value: number): string | undefined {
  const fits = Number.isSafeInteger(value) && value >= (entry.min ?? Number.MIN_SAFE_INTEGER) && value <= (entry.max ?? Number.MAX_SAFE_INTEGER);
  return fits ? undefined : `${name} must be ${describeEntry(entry)}, not ${value}`;
}

/* Credentials from the environment: the CLI and the vitest route read them the same way. */
/**
 * CONTRACT_TOKEN, and the --auth forms of CONTRACT_AUTH (separated by whitespace), CONTRACT_BASIC_AUTH
 * (<user>:<password>), CONTRACT_API_KEY and CONTRACT_API_KEY_<SCHEME> (contracts/runner/auth.ts reads them the same way).
 */
export function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): { token: string | undefined; auth: string[] } {
  const auth = (env.CONTRACT_AUTH ?? '').split(/\s+/).filter((form) => form !== '');
  if (env.CONTRACT_BASIC_AUTH) auth.push(`basic:${env.CONTRACT_BASIC_AUTH}`);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (name === 'CONTRACT_API_KEY') auth.push(`apikey:*=${value}`);
    else if (name.startsWith('CONTRACT_API_KEY_')) auth.push(`apikey:${name.slice('CONTRACT_API_KEY_'.length)}=${value}`);
  }
  return { token: env.CONTRACT_TOKEN || undefined, auth };
}

export const VERIFY_HELP = `Usage: plantstore verify --target URL [options]

Checks an implementation of an OpenAPI document (--spec) against it with generated
requests (fast-check), shrinking every failure to a minimal request with a curl command
to replay it.

Options:
${renderOptionsHelp(VERIFY_OPTIONS, 25)}
Exit codes: 0 conforms, 1 a check failed, 2 usage or set-up error, 3 no verdict (the run was cut
short: --time-budget-ms spent, or an internal error), 128+N ended by signal N (130 SIGINT, 143 SIGTERM).
`;
