/**
 * The conformance suite under vitest, one test per check.
 *
 *   CONTRACT_TARGET=http://127.0.0.1:4010 CONTRACT_TOKEN=secret npx vitest run contracts/conformance.test.ts
 *
 * verifies that server. Without CONTRACT_TARGET it starts the project's own stand-in on a free
 * port (with a token, so unknown tokens are refused) and verifies that, ids and model included.
 * Optional: CONTRACT_RUNS, CONTRACT_SEED, CONTRACT_SPEC, CONTRACT_TIMEOUT_MS, CONTRACT_CONCURRENCY,
 * and CONTRACT_STRICT / CONTRACT_EXPECT_UNIQUE_IDS / CONTRACT_STATEFUL / CONTRACT_TOKENS_VALIDATED (=1).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startServer } from '../src/index.js';
import { CHECKS } from './checks/index.js';
import { renderConsoleReport, renderFinding } from './reporters/console.js';
import type { CheckResult, VerifyOptions, VerifyReport } from './report.js';
import { verify } from './runner/verify.js';

const env = process.env;
const external = env.CONTRACT_TARGET !== undefined && env.CONTRACT_TARGET !== '';
const TOKEN = env.CONTRACT_TOKEN ?? 'conformance-suite-token';
/** A full run against a slow target can take a while; the checks themselves are instant. */
const RUN_TIMEOUT_MS = 600_000;

function flag(name: string, fallback: boolean): boolean {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value === '1' || value.toLowerCase() === 'true';
}

function whole(name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new Error(`${name} must be a whole number, not "${value}"`);
  return Number(value);
}

let report: VerifyReport | undefined;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let target = env.CONTRACT_TARGET ?? '';
  if (!external) {
    const server = await startServer({ port: 0, tokens: [TOKEN] });
    target = server.url;
    stop = () => server.close();
  }
  const runs = whole('CONTRACT_RUNS');
  const seed = whole('CONTRACT_SEED');
  const timeoutMs = whole('CONTRACT_TIMEOUT_MS');
  const concurrency = whole('CONTRACT_CONCURRENCY');
  const options: VerifyOptions = {
    target,
    token: TOKEN,
    ...(env.CONTRACT_SPEC ? { spec: env.CONTRACT_SPEC } : {}),
    ...(runs === undefined ? (external ? {} : { runs: 100 }) : { runs }),
    ...(seed === undefined ? {} : { seed }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(concurrency === undefined ? {} : { concurrency }),
    strict: flag('CONTRACT_STRICT', false),
    // The project's own stand-in keeps ids unique and checks tokens; another target must say so.
    expectUniqueIds: flag('CONTRACT_EXPECT_UNIQUE_IDS', !external),
    stateful: flag('CONTRACT_STATEFUL', !external),
    tokensValidated: flag('CONTRACT_TOKENS_VALIDATED', !external),
  };
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

describe(`Plant Store conformance${external ? ` of ${env.CONTRACT_TARGET}` : ' of the plantstore stand-in'}`, () => {
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
