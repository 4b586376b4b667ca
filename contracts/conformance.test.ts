/**
 * The conformance suite under vitest, one test per check.
 *
 *   CONTRACT_TARGET=http://127.0.0.1:4010 CONTRACT_TOKEN=secret npx vitest run contracts/conformance.test.ts
 *
 * verifies that server. Without CONTRACT_TARGET it starts the project's own stand-in on a free
 * port (with a token, so unknown tokens are refused) and verifies that, ids and model included.
 * Optional: CONTRACT_RUNS, CONTRACT_SEED, CONTRACT_SPEC, CONTRACT_TIMEOUT_MS, CONTRACT_CONCURRENCY,
 * CONTRACT_STRICT / CONTRACT_EXPECT_UNIQUE_IDS / CONTRACT_STATEFUL / CONTRACT_TOKENS_VALIDATED (=1), and
 * credentials: CONTRACT_AUTH (--auth forms), CONTRACT_BASIC_AUTH, CONTRACT_API_KEY[_<SCHEME>].
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startServer } from '../src/index.js';
import { CHECKS } from './checks/index.js';
import { renderConsoleReport, renderFinding } from './reporters/console.js';
import type { CheckResult, VerifyOptions, VerifyReport } from './report.js';
import { verify } from './runner/verify.js';
import { resolveOptions } from '../src/core/options.js';
import { credentialsFromEnv, VERIFY_OPTIONS } from './options.js';

const env = process.env;
const external = env.CONTRACT_TARGET !== undefined && env.CONTRACT_TARGET !== '';
/** A full run against a slow target can take a while; the checks themselves are instant. */
const RUN_TIMEOUT_MS = 600_000;

/**
 * The CONTRACT_* variables, read by the verify option table. Below them, this route's own
 * defaults: the project's stand-in keeps ids unique and checks tokens; another target must say so.
 */
const ROUTE_DEFAULTS = external
  ? { token: 'conformance-suite-token' }
  : { token: 'conformance-suite-token', runs: 100, expectUniqueIds: true, stateful: true, tokensValidated: true };
const {
  target: _target,
  junit: _junit,
  json: _json,
  emitRegressions: _emit,
  help: _help,
  ...fromEnv
} = resolveOptions(
  VERIFY_OPTIONS,
  { flags: {}, env, config: ROUTE_DEFAULTS },
  {
    fail: (message) => {
      throw new Error(message);
    },
  },
);
const TOKEN = fromEnv.token ?? ROUTE_DEFAULTS.token;

let report: VerifyReport | undefined;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let target = env.CONTRACT_TARGET ?? '';
  if (!external) {
    const server = await startServer({ port: 0, tokens: [TOKEN] });
    target = server.url;
    stop = () => server.close();
  }
  // CONTRACT_AUTH, CONTRACT_BASIC_AUTH, CONTRACT_API_KEY[_<SCHEME>]: credentials beyond the token, as the CLI reads them.
  const auth = credentialsFromEnv(env).auth;
  const options: VerifyOptions = { target, ...fromEnv, token: TOKEN, stateful: fromEnv.stateful ?? false, ...(auth.length > 0 ? { auth } : {}) };
  report = await verify(options);
  // The whole report once, so a failing run shows the table and every finding with its curl.
  if (!report.ok) process.stdout.write(renderConsoleReport(report));
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await stop?.();
});

/** The check's findings as the console report prints them. */
function describeFindings(run: VerifyReport, result: CheckResult): string {
  return result.findings.map((finding, i) => renderFinding(run, finding, i + 1).join('\n')).join('\n');
}

describe(`conformance to ${env.CONTRACT_SPEC ?? 'the bundled Plant Store'}${external ? ` of ${env.CONTRACT_TARGET}` : ' of the plantstore stand-in'}`, () => {
  for (const check of CHECKS) {
    it(`${check.id}: ${check.description}`, (context) => {
      const run = report;
      const result = run?.checks.find((c) => c.id === check.id);
      if (run === undefined || result === undefined) throw new Error('the verification did not run (see the error above)');
      if (result.status === 'skipped') {
        context.skip();
        return;
      }
      if (result.status === 'failed') {
        throw new Error(`${check.id} failed (seed ${run.seed}):\n${describeFindings(run, result)}`);
      }
      if (result.status === 'warned') console.warn(`${check.id} warned:\n${describeFindings(run, result)}`);
    });
  }
});
