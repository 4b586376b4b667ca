/** A report of one failed check, for the reporters' tests: what a run that found `findings` would hand them. */
import type { Finding, VerifyReport } from '../report.js';

export function failedReport(findings: readonly Finding[], target = 'http://127.0.0.1:1', spec = 'spec.yaml'): VerifyReport {
  const check = findings[0]?.check ?? 'no-server-errors';
  return {
    target,
    spec,
    seed: 1,
    runs: 1,
    coverage: [],
    hints: [],
    casesRun: 1,
    durationMs: 1,
    casesPerSecond: 1,
    shrinkMs: 0,
    replayOptions: { token: false, expectUniqueIds: false, stateful: false, tokensValidated: false, strict: false },
    checks: [{ id: check, title: 't', description: 'd', status: 'failed', cases: 1, findings }],
    ok: false,
  };
}
