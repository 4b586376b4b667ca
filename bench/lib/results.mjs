// @ts-check
// bench/results/latest.json: everything a run measured, with the commit and machine it ran on.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST } from '../targets.mjs';
import { RESULTS, ROOT } from './config.mjs';

/** The checked-out commit, read from .git (null when that fails, e.g. in a git worktree). */
export function gitCommit() {
  try {
    const head = readFileSync(path.join(ROOT, '.git', 'HEAD'), 'utf8').trim();
    return head.startsWith('ref: ') ? readFileSync(path.join(ROOT, '.git', head.slice(5)), 'utf8').trim() : head;
  } catch {
    return null;
  }
}

/**
 * @typedef {ReturnType<typeof import('./report.mjs').judge>} Verdict
 * @param {{ gitCommit: string | null, config: import('./config.mjs').Config, rows: import('./types.js').Row[],
 *   startup: import('./types.js').StartupResult | null, large: import('./types.js').LargeResult | null, verify: import('./types.js').VerifyResult | null,
 *   postPairs: import('./post-pairs.mjs').Pair[], goals: import('./goals.mjs').Goal[], ratios: Verdict['ratios'], bars: Verdict['bars'], problems: string[], seconds: number }} run
 */
export function writeResults({ gitCommit, config, rows, startup, large, verify, postPairs, goals, ratios, bars, problems, seconds }) {
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        gitCommit,
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        loadavgAtEnd: os.loadavg(),
        config: { ...config, host: HOST },
        rows,
        startup,
        large,
        verify,
        postPairs,
        goals,
        ratios,
        bars,
        problems,
        seconds,
      },
      null,
      2,
    ) + '\n',
  );
}
