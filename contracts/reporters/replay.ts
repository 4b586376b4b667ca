/** How to replay a finding: the `plantstore verify` command with the run's seed, the finding's path and the options that shaped the run. */
import type { Finding, ReplayOptions, VerifyReport } from '../report.js';

/** The options that change which requests are sent or how answers are judged, as CLI flags. A token is written as "$TOKEN", never its value. */
export function replayFlagsOf(options: ReplayOptions): string {
  const flags: string[] = [];
  if (options.token) flags.push('--token "$TOKEN"');
  flags.push(...(options.credentials ?? []));
  if (options.spec !== undefined) flags.push(`--spec ${shellWord(options.spec)}`);
  if (options.expectUniqueIds) flags.push('--expect-unique-ids');
  if (options.stateful) flags.push('--stateful');
  if (options.tokensValidated) flags.push('--tokens-validated');
  if (options.strict) flags.push('--strict');
  return flags.join(' ');
}

/** A word the shell reads as is: bare when it is plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that sends a finding's request again: same target, seed, path and shaping flags; undefined for a fixed probe. */
export function replayCommand(report: Pick<VerifyReport, 'target' | 'replayOptions'>, finding: Pick<Finding, 'seed' | 'path'>): string | undefined {
  if (finding.path === undefined) return undefined;
  const flags = replayFlagsOf(report.replayOptions);
  return `plantstore verify --target ${report.target}${flags === '' ? '' : ` ${flags}`} --seed ${finding.seed} --replay ${finding.path}`;
}
