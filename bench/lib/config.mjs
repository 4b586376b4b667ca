// @ts-check
// Flags and BENCH_* environment variables for bench/run.mjs: parsed, checked, and turned into the run's config and targets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { targets as allTargets } from '../targets.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = path.join(ROOT, 'bench', 'results', 'latest.json');

/**
 * Reads process.argv and the environment. Exits 0 after printing --help (the first comment block of helpFile),
 * and 1 on a bad number or an unknown --only target.
 * @param {string} helpFile the entry script whose leading comment is the --help text
 */
export function readConfig(helpFile) {
  const { values: argv } = parseArgs({
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      strict: { type: 'boolean' },
      'max-seconds': { type: 'string' },
      settle: { type: 'string' },
      'startup-rounds': { type: 'string' },
      'large-rounds': { type: 'string' },
      'large-document': { type: 'string' },
      'verify-rounds': { type: 'string' },
      'post-pairs': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (argv.help) {
    console.log(/** @type {string} */ (readFileSync(helpFile, 'utf8').split('\nimport ')[0]).replace(/^\/\/ @ts-check\n/, '').replace(/^\/\/ ?/gm, ''));
    process.exit(0);
  }

  /**
   * A number flag, else its environment variable, else dflt; exits 1 below min or when not a number.
   * @param {'duration' | 'warmup' | 'connections' | 'max-seconds' | 'settle' | 'startup-rounds' | 'large-rounds' | 'verify-rounds' | 'post-pairs'} flag
   * @param {string} env @param {number} dflt @param {number} min
   */
  function num(flag, env, dflt, min) {
    const raw = argv[flag] ?? process.env[env];
    if (raw === undefined || raw === '') return dflt;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) {
      console.error(`bench: --${flag} / ${env} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
      process.exit(1);
    }
    return n;
  }

  const config = {
    durationSeconds: num('duration', 'BENCH_DURATION', 10, 1),
    warmupSeconds: num('warmup', 'BENCH_WARMUP', 2, 0),
    connections: Math.round(num('connections', 'BENCH_CONNECTIONS', 32, 1)),
    only: (argv.only ?? process.env.BENCH_ONLY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    strict: argv.strict ?? process.env.BENCH_STRICT === '1',
    // Before each row, wait up to this long for the machine to be quiet (other CPU use below the "disturbed" mark).
    settleSeconds: num('settle', 'BENCH_SETTLE', 2, 0),
    startupRounds: Math.round(num('startup-rounds', 'BENCH_STARTUP_ROUNDS', 7, 0)),
    // Issue 21's goal rows: a ~500 KB document's start against prism mock's, and verify at its defaults.
    largeRounds: Math.round(num('large-rounds', 'BENCH_LARGE_ROUNDS', 3, 0)),
    // A public ~500 KB document (bench/documents/README.md); "made" for the one made to order.
    largeDocument: argv['large-document'] ?? process.env.BENCH_LARGE_DOCUMENT ?? path.join(ROOT, 'bench', 'documents', 'twilio_taskrouter_v1.json'),
    verifyRounds: Math.round(num('verify-rounds', 'BENCH_VERIFY_ROUNDS', 3, 0)),
    // More floor/plantstore pairs for the POST goal (bench/lib/post-pairs.mjs), beside the rows' own pair.
    postPairs: Math.round(num('post-pairs', 'BENCH_POST_PAIRS', 4, 0)),
  };

  let targets = allTargets;
  if (config.only.length) {
    const unknown = config.only.filter((id) => !allTargets.some((t) => t.id === id));
    if (unknown.length) {
      console.error(`bench: unknown target(s) ${unknown.join(', ')}; known: ${allTargets.map((t) => t.id).join(', ')}`);
      process.exit(1);
    }
    targets = allTargets.filter((t) => config.only.includes(t.id));
  }

  // Whole-run limit: generous per row (start + warm-up + measure + stop), then give up.
  const maxSeconds = num(
    'max-seconds',
    'BENCH_MAX_SECONDS',
    targets.reduce(
      (s, t) => s + (t.startTimeoutMs ?? 15000) / 1000 + config.settleSeconds + config.warmupSeconds + config.durationSeconds + 15,
      30 + config.startupRounds * 10 + config.largeRounds * 30 + config.verifyRounds * 20,
    ),
    1,
  );
  return { config: { ...config, maxSeconds }, targets };
}

/** @typedef {ReturnType<typeof readConfig>['config']} Config */
