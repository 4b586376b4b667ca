/**
 * `plantstore verify`: the conformance suite from the command line. Exit 0 when the target
 * conforms, 1 when a check failed, 2 for a usage or set-up error (bad flag, unusable document,
 * unreachable target), always with the reason on stderr; 3 when the run ended without a verdict
 * and 128+N when signal N ended it, with the reports written either way (verify-ending.ts).
 */
import { constants } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { credentialsFromEnv, DEFAULTS, VERIFY_HELP, VERIFY_OPTIONS, VERIFY_VERB } from '../../contracts/options.js';
import { ERRORS, EXIT_CODES, PlantstoreError } from '../core/errors.js';
import { readFlags, resolveOptions } from '../core/options.js';
import type { VerifyOptions, VerifyReport } from '../../contracts/report.js';
import { guardEnding, writeNow } from './verify-ending.js';

export { VERIFY_HELP };

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
  // Report files are checked (and their folders made) before the run: a path found unwritable after it would hide its verdict.
  const unwritable = await firstUnwritable([parsed.junit, parsed.json].filter((path): path is string => path !== undefined));
  if (unwritable !== undefined) return usageError(`cannot write a report to ${unwritable.path}: ${unwritable.reason}`);
  const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
  // Drawn here when not given, so that a report made without the run's own still names the seed.
  const options: VerifyOptions = { ...parsed.options, seed: parsed.options.seed ?? Math.floor(Math.random() * 2 ** 31) };
  let casesRun = 0;
  let loaded: Loaded | undefined;
  // Guarded before the modules load (a second or more on a busy machine): a signal then halts the run as soon as it starts.
  const ending = guardEnding({
    graceMs: 5_000,
    emptyReport: (reason) => emptyReport(options, casesRun, reason),
    writeSync: (report) => {
      if (loaded === undefined) throw new Error('the reporters were not loaded yet');
      loaded.progress.done();
      writeNow(1, loaded.renderConsoleReport(report, { color }));
      if (parsed.junit !== undefined) writeNow(parsed.junit, loaded.renderJUnit(report));
      if (parsed.json !== undefined) writeNow(parsed.json, loaded.renderJson(report));
    },
  });
  // Loaded only now: fast-check, the generators and prism take a while, and --help or a usage error need none of them.
  const [{ verify }, { progressPrinter, renderConsoleReport }, { renderJUnit }, { renderJson }, { emitRegressions }] = await Promise.all([
    import('../../contracts/runner/verify.js'),
    import('../../contracts/reporters/console.js'),
    import('../../contracts/reporters/junit.js'),
    import('../../contracts/reporters/json.js'),
    import('../../contracts/reporters/regressions.js'),
  ]);
  const progress = progressPrinter(parsed.options.target, process.stderr);
  loaded = { progress, renderConsoleReport, renderJUnit, renderJson };
  let report: VerifyReport;
  try {
    report = await verify({
      ...options,
      signal: ending.signal,
      onProgress: (snapshot) => {
        casesRun = snapshot.casesRun;
        progress.onProgress(snapshot);
      },
    });
  } catch (error) {
    progress.done();
    // An unusable document, options or target: the error says which exit code (src/core/errors.ts).
    if (error instanceof PlantstoreError) {
      ending.dispose();
      process.stderr.write(`plantstore verify: ${error.message}\n`);
      return error.exitCode;
    }
    // Anything else is ours: the run still ends in a verdict, with its reports.
    report = emptyReport(options, casesRun, `no verdict: verify failed inside (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    progress.done();
  }
  ending.settle();
  process.stdout.write(renderConsoleReport(report, { color, fullCoverage: parsed.options.fullCoverage === true }));
  try {
    if (parsed.junit !== undefined) await writeFile(parsed.junit, renderJUnit(report));
    if (parsed.json !== undefined) await writeFile(parsed.json, renderJson(report));
    if (parsed.regressions !== undefined && report.plan === undefined) {
      const files = await emitRegressions(report, parsed.regressions);
      process.stdout.write(`${files.length} regression test${files.length === 1 ? '' : 's'} written to ${parsed.regressions}\n`);
    }
  } catch (error) {
    process.stderr.write(`plantstore verify: cannot write a report: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.setup;
  } finally {
    ending.dispose();
  }
  return exitCodeOf(report, ending.signalExit());
}

function exitCodeOf(report: VerifyReport, signalled: number | undefined): number {
  if (signalled !== undefined) return signalled;
  if (report.plan !== undefined) return EXIT_CODES.ok;
  if (report.incomplete !== undefined) return EXIT_CODES.incomplete;
  return report.ok ? EXIT_CODES.ok : EXIT_CODES.nonConforming;
}

/** The report of a run that gave none of its own: nothing judged, `incomplete` saying why. */
function emptyReport(options: VerifyOptions, casesRun: number, reason: string): VerifyReport {
  return {
    target: options.target,
    spec: typeof options.spec === 'string' ? options.spec : 'the bundled Plant Store document',
    seed: options.seed ?? 0,
    runs: options.runs ?? DEFAULTS.runs,
    casesRun,
    durationMs: Math.round(performance.now()),
    casesPerSecond: 0,
    shrinkMs: 0,
    replayOptions: { token: false, expectUniqueIds: false, stateful: false, tokensValidated: false, strict: false },
    checks: [],
    coverage: [],
    hints: [],
    incomplete: `${reason}; ${casesRun} requests had been sent, none is reported`,
    ok: false,
  };
}

/** What writing a report takes, once its modules are loaded. */
interface Loaded {
  readonly progress: { done(): void };
  readonly renderConsoleReport: (report: VerifyReport, options: { color: boolean }) => string;
  readonly renderJUnit: (report: VerifyReport) => string;
  readonly renderJson: (report: VerifyReport) => string;
}

interface Parsed {
  readonly help: boolean;
  readonly options: VerifyOptions;
  // The report files asked for; undefined: not asked for.
  readonly junit?: string | undefined;
  readonly json?: string | undefined;
  readonly regressions?: string | undefined;
}

function parse(argv: readonly string[]): Parsed {
  const { values: flags, positionals } = readFlags(VERIFY_OPTIONS, argv, true);
  if (flags.help === true) return { help: true, options: { target: '' } };
  if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}" (options start with --)`);
  // The command line only: the CONTRACT_* variables are the vitest route's.
  const { junit, json, emitRegressions, help: _help, target, ...resolved } = resolveOptions(VERIFY_OPTIONS, { flags }, { verb: VERIFY_VERB, fail });
  const run: Mutable<typeof resolved> = { ...resolved };
  // Credentials may come from the environment, so that secrets stay out of shell history (flags win).
  const fromEnv = credentialsFromEnv(process.env);
  if (run.token === undefined && fromEnv.token !== undefined) run.token = fromEnv.token;
  if (fromEnv.auth.length > 0) run.auth = [...(run.auth ?? []), ...fromEnv.auth];
  if (target === undefined || target === '') throw new Error('--target URL is required, e.g. --target http://127.0.0.1:4010');
  if (!/^https?:\/\/[^/]/i.test(target)) throw new Error(`--target must be an http(s) URL, not "${target}"`);
  if (run.replay !== undefined && run.seed === undefined) throw new Error('--replay needs the --seed printed with the finding');
  return {
    help: false,
    options: { target, ...run },
    junit,
    json,
    regressions: emitRegressions,
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function fail(message: string): never {
  throw new Error(message);
}

function usageError(message: string): number {
  process.stderr.write(`plantstore verify: ${message}\nRun "plantstore verify --help" for the options.\n`);
  return ERRORS.usage.exitCode;
}

/** The first report path whose folder cannot be made or written to (folders are made as needed: `--junit reports/x.xml`). */
async function firstUnwritable(paths: readonly string[]): Promise<{ path: string; reason: string } | undefined> {
  for (const path of paths) {
    try {
      await mkdir(dirname(resolve(path)), { recursive: true });
      await access(dirname(resolve(path)), constants.W_OK);
    } catch (error) {
      return { path, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  return undefined;
}
