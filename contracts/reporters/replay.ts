import type { Finding, VerifyReport } from '../report.js';

/** The command that sends a finding's request again: same target, seed, path and shaping flags. */
export function replayCommand(report: Pick<VerifyReport, 'target' | 'replayFlags'>, finding: Pick<Finding, 'seed' | 'path'>): string | undefined {
  if (finding.path === undefined) return undefined;
  const flags = report.replayFlags === '' ? '' : ` ${report.replayFlags}`;
  return `plantstore verify --target ${report.target}${flags} --seed ${finding.seed} --replay ${finding.path}`;
}
