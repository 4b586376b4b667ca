// @ts-check
// `npm run bench`: POST /plants throughput of plantstore vs the prism mock vs a
// bare node:http floor, back to back in one run. A benchmark, not a test.
//
// Each server runs in its own child process; the load generator (autocannon,
// bench/load.mjs) runs in another. Per server: start on a free loopback port,
// wait until it answers, warm up, measure, read its peak RSS, stop it.
//
//   node bench/run.mjs [--duration 10] [--warmup 2] [--connections 32]
//                      [--only floor,plantstore] [--strict] [--settle 2] [--max-seconds N]
//                      [--startup-rounds 7] [--large-rounds 3] [--large-document PATH] [--verify-rounds 3] [--post-pairs 4]
//   env: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ONLY, BENCH_STRICT=1, BENCH_SETTLE, BENCH_MAX_SECONDS,
//        BENCH_STARTUP_ROUNDS, BENCH_LARGE_ROUNDS, BENCH_LARGE_DOCUMENT, BENCH_VERIFY_ROUNDS, BENCH_POST_PAIRS
// --startup-rounds: start-up times first (bench/startup.mjs), this many alternating rounds (0: skip).
// --large-rounds: a ~500 KB document's start, empty and warm cache, against prism mock (bench/large-document.mjs; 0: skip).
// --large-document: that document (default: Twilio's public TaskRouter document, bench/documents/; "made": one made to order).
// --verify-rounds: verify at its defaults against serve (bench/verify-speed.mjs; 0: skip).
// --post-pairs: after the rows, this many more floor/plantstore pairs, run back to back in alternating order;
//   the POST goal is the median of the pairs' ratios, the rows' own pair among them (bench/lib/post-pairs.mjs; 0: that pair alone).
// At the end, issue 21's goals are printed, each beside its reference.
// --settle: before each row wait up to N s for other processes to quiet down (0: don't).
//
// Exit codes: 0 ok (bars may be unmet unless --strict), 1 a row had > 1 % non-2xx
// or errors, a required row failed to start, or (--strict) a bar was not met;
// 2 the whole-run time limit was hit; 130 interrupted.
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchLargeDocuments } from './large-document.mjs';
import { benchStartup } from './startup.mjs';
import { benchVerifySpeed } from './verify-speed.mjs';
import { goals } from './lib/goals.mjs';
import { HOST, PLANTSTORE_CLI } from './targets.mjs';
import { installCleanup } from './lib/children.mjs';
import { ROOT, readConfig } from './lib/config.mjs';
import { log } from './lib/format.mjs';
import { printFailure, judge, reportText } from './lib/report.mjs';
import { gitCommit, writeResults } from './lib/results.mjs';
import { benchTarget } from './lib/row.mjs';
import { benchPostPairs, pairOf } from './lib/post-pairs.mjs';

// The work is done in bench/lib/: config.mjs (flags, env), children.mjs (child processes, ports, cleanup),
// cpu.mjs (/proc readings, settling), row.mjs (one target), report.mjs (table, bars), results.mjs (latest.json).

const { config, targets } = readConfig(fileURLToPath(import.meta.url));
installCleanup(config.maxSeconds);

const t0 = Date.now();
const commit = gitCommit();
log(
  `bench: ${targets.length} target(s), warm-up ${config.warmupSeconds} s + measure ${config.durationSeconds} s each, ` +
    `${config.connections} connections, Node ${process.version}, ${os.cpus().length} CPUs, loopback ${HOST}\n`,
);

// Start-up and the large document first, while no server of ours is running.
const built = existsSync(path.resolve(ROOT, PLANTSTORE_CLI));
if (!built && config.startupRounds + config.largeRounds + config.verifyRounds > 0)
  log(`[startup, large document, verify] skipped: ${PLANTSTORE_CLI} not found (not built yet: npm run build)\n`);
const startup = config.startupRounds > 0 && built ? await benchStartup({ rounds: config.startupRounds, cli: PLANTSTORE_CLI, log }) : null;
let large = null;
if (config.largeRounds > 0 && built)
  large = await benchLargeDocuments({
    rounds: config.largeRounds,
    cli: PLANTSTORE_CLI,
    ...(config.largeDocument === 'made' ? { sizes: [500_000] } : { sizes: [], documents: [config.largeDocument] }),
    log,
  });

const rows = [];
for (const target of targets) rows.push(await benchTarget(config, target));

// The POST goal's pairs: the rows' own, then more, each back to back (see bench/lib/post-pairs.mjs).
const floorTarget = targets.find((t) => t.role === 'floor');
const plantstoreTarget = targets.find((t) => t.role === 'plantstore');
const firstPair = pairOf(
  rows.find((r) => r.role === 'floor'),
  rows.find((r) => r.role === 'plantstore'),
);
const postPairs =
  firstPair && floorTarget && plantstoreTarget ? [firstPair, ...(await benchPostPairs(config, floorTarget, plantstoreTarget, config.postPairs, log))] : [];

// verify against this checkout's serve (the suite's speed at its defaults, as a user runs it).
const verify = config.verifyRounds > 0 && built ? await benchVerifySpeed({ rounds: config.verifyRounds, runs: 200, log }) : null;

const verdict = judge(rows, postPairs);
const seconds = (Date.now() - t0) / 1000;
const goalRows = goals({ startup, large, verify, postPairs });
console.log(reportText({ config, targets, rows, verdict, startup, large, verify, goals: goalRows, seconds }));

const strictFail = config.strict && Object.values(verdict.bars).some((b) => b.met !== true);
printFailure(verdict.problems, strictFail);
const { ratios, bars, problems } = verdict;
writeResults({ gitCommit: commit, config, rows, startup, large, verify, postPairs, goals: goalRows, ratios, bars, problems, seconds });

process.exit(problems.length || strictFail ? 1 : 0);
