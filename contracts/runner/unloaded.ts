/**
 * The report of a run halted while its document was being read (a SIGTERM during the seconds
 * DigitalOcean's takes, or its time budget spent then): nothing planned, nothing sent, every check
 * skipped, and incomplete, as a run halted while planning is. Never a pass.
 */
import { resolve } from 'node:path';
import { bundledSpecPath } from '../../src/core/openapi/load-document.js';
import type { VerifyOptions, VerifyReport } from '../report.js';
import { checkResults, newTally } from './aggregate.js';
import { replayOptionsOf, settingsOf } from './settings.js';
import { SHRINK_BUDGET_MS } from './shrink.js';

/** `reason`: why the run was halted (runner/halt.ts). */
export function unloadedReport(options: VerifyOptions, started: number, reason: string): VerifyReport {
  const settings = settingsOf(options);
  const spec = options.spec ?? bundledSpecPath();
  return {
    target: options.target,
    spec: typeof spec === 'string' ? resolve(spec) : '(inline)',
    seed: settings.seed,
    runs: settings.runs,
    replayOptions: replayOptionsOf(options),
    timeBudget: {
      requestTimeoutMs: settings.timeoutMs,
      ...(settings.timeBudgetMs === undefined ? {} : { runMs: settings.timeBudgetMs }),
      shrinkMs: SHRINK_BUDGET_MS,
    },
    casesRun: 0,
    durationMs: Math.round(performance.now() - started),
    casesPerSecond: 0,
    shrinkMs: 0,
    checks: checkResults(newTally(new Set(settings.excludedChecks.keys())), []),
    coverage: [],
    hints: [],
    incomplete: `${reason} while the document was being read: no request was sent`,
    leftBehind: [],
    ok: false,
  };
}
