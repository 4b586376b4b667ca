/**
 * `plantstore verify`: the conformance suite from the command line. Exit 0 when the target
 * conforms, 1 when a check failed, 2 for a usage or set-up error (bad flag, unusable document,
 * unreachable target), always with the reason on stderr.
 */
import { constants } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../../contracts/runner/defaults.js';
import { ERRORS, EXIT_CODES, PlantstoreError } from '../core/errors.js';
import type { VerifyOptions, VerifyReport } from '../../contracts/report.js';

export const VERIFY_HELP = `Usage: plantstore verify --target URL [options]

Checks a Plant Store implementation against the OpenAPI document with generated requests
(fast-check), shrinking every failure to a minimal request with a curl command to replay it.

Options:
  --target URL            base URL of the server under test (required), e.g. http://127.0.0.1:4010
  --token T               bearer token for valid requests (default: a fixed test token)
  --spec FILE             OpenAPI document (default: the bundled Plant Store document)
  --runs N                runs per property (default ${DEFAULTS.runs})
  --seed S                fast-check seed (default: random; always printed)
  --replay PATH           replay one case: the path printed with a finding (use with its --seed)
  --timeout-ms MS         per-request timeout (default ${DEFAULTS.timeoutMs})
  --concurrency C         requests in flight at once (default ${DEFAULTS.concurrency})
  --strict                warnings (answers the document is silent about) fail too
  --expect-unique-ids     the target must refuse an id it already holds (turns on --stateful)
  --stateful              run the model-based sequences of creates
  --tokens-validated      the target refuses unknown tokens: send a bogus one too
  --junit FILE            write a JUnit XML report
  --json FILE             write the report as JSON
  --emit-regressions DIR  write each failure as a runnable vitest file
  -h, --help              show this help

Exit codes: 0 conforms, 1 a check failed, 2 usage or set-up error.
`;

/** Runs `plantstore verify` with `argv` (the arguments after "verify"); resolves to the exit code. */
export async function runVerify(argv: readonly string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) {
    process.stdout.write(VERIFY_HELP);
    return 0;
  }
  // Report files are checked before the run: a path found unwritable after it would hide its verdict.
  const unwritable = await firstUnwritable([parsed.junit, parsed.json].filter((path): path is string => path !== undefined));
  if (unwritable !== undefined) return usageError(`cannot write a report to ${unwritable.path}: ${unwritable.reason}`);
  // Loaded only now: fast-check, the generators and prism take a while, and --help or a usage error need none of them.
  const [{ verify }, { progressPrinter, renderConsoleReport }, { renderJUnit }, { renderJson }, { emitRegressions }] = await Promise.all([
    import('../../contracts/runner/verify.js'),
    import('../../contracts/reporters/console.js'),
    import('../../contracts/reporters/junit.js'),
    import('../../contracts/reporters/json.js'),
    import('../../contracts/reporters/regressions.js'),
  ]);
  const progress = progressPrinter(parsed.options.target, process.stderr);
  let report: VerifyReport;
  try {
    report = await verify({ ...parsed.options, onProgress: progress.onProgress });
  } catch (error) {
    progress.done();
    // An unusable document, options or target: the error says which exit code (src/core/errors.ts).
    if (error instanceof PlantstoreError) {
      process.stderr.write(`plantstore verify: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  } finally {
    progress.done();
  }
  const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
  process.stdout.write(renderConsoleReport(report, { color }));
  try {
    if (parsed.junit !== undefined) await writeFile(parsed.junit, renderJUnit(report));
    if (parsed.json !== undefined) await writeFile(parsed.json, renderJson(report));
    if (parsed.regressions !== undefined) {
      const files = await emitRegressions(report, parsed.regressions);
      process.stdout.write(`${files.length} regression test${files.length === 1 ? '' : 's'} written to ${parsed.regressions}\n`);
    }
  } catch (error) {
    process.stderr.write(`plantstore verify: cannot write a report: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.setup;
  }
  return report.ok ? EXIT_CODES.ok : EXIT_CODES.nonConforming;
}

interface Parsed {
  readonly help: boolean;
  readonly options: VerifyOptions;
  readonly junit?: string;
  readonly json?: string;
  readonly regressions?: string;
}

function parse(argv: readonly string[]): Parsed {
  const { values, positionals } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      token: { type: 'string' },
      spec: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      'timeout-ms': { type: 'string' },
      concurrency: { type: 'string' },
      strict: { type: 'boolean' },
      'expect-unique-ids': { type: 'boolean' },
      stateful: { type: 'boolean' },
      'tokens-validated': { type: 'boolean' },
      junit: { type: 'string' },
      json: { type: 'string' },
      'emit-regressions': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return { help: true, options: { target: '' } };
  if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}" (options start with --)`);
  if (values.target === undefined || values.target === '') throw new Error('--target URL is required, e.g. --target http://127.0.0.1:4010');
  if (!/^https?:\/\/[^/]/i.test(values.target)) throw new Error(`--target must be an http(s) URL, not "${values.target}"`);
  if (values.replay !== undefined && values.seed === undefined) throw new Error('--replay needs the --seed printed with the finding');
  const options: VerifyOptions = {
    target: values.target,
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(values.spec === undefined ? {} : { spec: values.spec }),
    ...(values.runs === undefined ? {} : { runs: whole('--runs', values.runs, 1) }),
    ...(values.seed === undefined ? {} : { seed: whole('--seed', values.seed, -(2 ** 31)) }),
    ...(values.replay === undefined ? {} : { replay: values.replay }),
    ...(values['timeout-ms'] === undefined ? {} : { timeoutMs: whole('--timeout-ms', values['timeout-ms'], 1) }),
    ...(values.concurrency === undefined ? {} : { concurrency: whole('--concurrency', values.concurrency, 1) }),
    strict: values.strict === true,
    expectUniqueIds: values['expect-unique-ids'] === true,
    ...(values.stateful === true ? { stateful: true } : {}),
    tokensValidated: values['tokens-validated'] === true,
  };
  return {
    help: false,
    options,
    ...(values.junit === undefined ? {} : { junit: values.junit }),
    ...(values.json === undefined ? {} : { json: values.json }),
    ...(values['emit-regressions'] === undefined ? {} : { regressions: values['emit-regressions'] }),
  };
}

function whole(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new Error(`${flag} takes a whole number${min > 0 ? ` of at least ${min}` : ''}, not "${text}"`);
  }
  return value;
}

function usageError(message: string): number {
  process.stderr.write(`plantstore verify: ${message}\nRun "plantstore verify --help" for the options.\n`);
  return ERRORS.usage.exitCode;
}

/** The first report path whose folder does not exist or cannot be written to. */
async function firstUnwritable(paths: readonly string[]): Promise<{ path: string; reason: string } | undefined> {
  for (const path of paths) {
    try {
      await access(dirname(resolve(path)), constants.W_OK);
    } catch (error) {
      return { path, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  return undefined;
}
