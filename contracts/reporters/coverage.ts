/** The coverage report and the --dry-run plan as console lines: compact, one line per operation and check. */
import type { CoverageEntry, PlannedOperation } from '../report.js';

/** Per operation, each check's cases by declared status, or why it judged nothing; an operation skipped whole is one line. */
export function coverageLines(coverage: readonly CoverageEntry[]): string[] {
  const lines = ['coverage (operation × declared status × check: requests judged, or why none):'];
  const byOperation = new Map<string, CoverageEntry[]>();
  for (const entry of coverage) byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry]);
  for (const [operation, entries] of byOperation) {
    lines.push(`  ${operation}`);
    const reasons = new Set(entries.map((entry) => entry.skipped));
    const only = [...reasons][0];
    if (reasons.size === 1 && only !== undefined) {
      lines.push(`    every check skipped: ${only}`);
      continue;
    }
    const checks = new Map<string, CoverageEntry[]>();
    for (const entry of entries) checks.set(entry.check, [...(checks.get(entry.check) ?? []), entry]);
    const width = Math.max(...[...checks.keys()].map((check) => check.length));
    for (const [check, cells] of checks) {
      const skipped = cells.find((cell) => cell.skipped !== undefined)?.skipped;
      const text = skipped !== undefined ? `skipped: ${skipped}` : cells.map((cell) => `${cell.status}: ${cell.cases}`).join(', ');
      lines.push(`    ${check.padEnd(width)}  ${text}`);
    }
  }
  return lines;
}

/**
 * The default: one line per operation (the answers judged, by declared status, and how many checks
 * judged them), a line per thing the plan left out and why, and the checks left out of the run.
 * Each check's cells are in --full-coverage, and always in the JSON and JUnit reports.
 */
export function compactCoverageLines(coverage: readonly CoverageEntry[]): string[] {
  const lines = ['coverage (per operation: answers judged by declared status; --full-coverage shows each check):'];
  const byOperation = new Map<string, CoverageEntry[]>();
  for (const entry of coverage) byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry]);
  const leftOut = new Map<string, string>();
  for (const [operation, entries] of byOperation) {
    const judged = entries.filter((entry) => entry.skipped === undefined);
    const checks = new Set(entries.map((entry) => entry.check));
    const judging = new Set(judged.map((entry) => entry.check));
    // Every answer is judged by some check (no-server-errors judges all): a status's count is its largest.
    const statuses = new Map<string, number>();
    for (const entry of judged) statuses.set(entry.status, Math.max(statuses.get(entry.status) ?? 0, entry.cases));
    const answers = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const byStatus = [...statuses].map(([status, n]) => `${status}: ${n}`).join(', ');
    const reasons = new Set(entries.filter((entry) => entry.skipped !== undefined && !isLeftOut(entry)).map((entry) => entry.skipped));
    if (answers === 0) {
      lines.push(`  ${operation}: nothing judged${reasons.size === 1 ? ` (${[...reasons][0] ?? ''})` : ''}`);
    } else {
      lines.push(`  ${operation}: ${answers} answers (${byStatus}), judged by ${judging.size} of ${checks.size} checks`);
    }
    for (const entry of entries) if (isLeftOut(entry)) leftOut.set(entry.check, entry.skipped ?? '');
    for (const reason of answers === 0 ? [] : [...reasons].filter((r): r is string => r !== undefined && r.includes(' not sent: ')))
      lines.push(`    ${reason}`);
  }
  for (const [check, why] of leftOut) lines.push(`  ${check}  skipped: ${why}`);
  return lines;
}

function isLeftOut(entry: CoverageEntry): boolean {
  return /--(exclude-)?checks/.test(entry.skipped ?? '');
}

/** --dry-run: per operation, the kinds of request and their runs, and what is skipped and why. */
export function planLines(plan: readonly PlannedOperation[], coverage: readonly CoverageEntry[] = []): string[] {
  const lines = ['plan (--dry-run: nothing was sent):'];
  const checks = [...new Set(coverage.map((cell) => cell.check))];
  const out = new Map(coverage.filter((cell) => /--(exclude-)?checks/.test(cell.skipped ?? '')).map((cell) => [cell.check, cell.skipped]));
  if (checks.length > 0) lines.push(`  checks: ${checks.filter((check) => !out.has(check)).join(', ')}`);
  for (const [check, why] of out) lines.push(`  left out: ${check} (${why})`);
  for (const operation of plan) {
    lines.push(`  ${operation.operation}`);
    if (operation.properties.length > 0) {
      const runs = operation.properties.reduce((sum, property) => sum + property.runs, 0);
      lines.push(`    sends ${runs} cases: ${grouped(operation.properties).join(', ')}`);
    }
    for (const skip of operation.skipped) lines.push(`    skips ${skip.what}: ${skip.reason}`);
  }
  return lines;
}

/** "invalid#0..38 ×6" for a run of numbered properties with the same runs, so a plan stays one line per operation. */
function grouped(properties: PlannedOperation['properties']): string[] {
  const parts: string[] = [];
  for (let i = 0; i < properties.length;) {
    const first = properties[i] as PlannedOperation['properties'][number];
    const stem = /^(.*#)\d+$/.exec(first.name)?.[1];
    let j = i + 1;
    while (stem !== undefined && j < properties.length && properties[j]?.name.startsWith(stem) && properties[j]?.runs === first.runs) j += 1;
    const last = properties[j - 1] as PlannedOperation['properties'][number];
    parts.push(j - i > 1 ? `${first.name}..${last.name.slice(stem?.length ?? 0)} ×${first.runs} each` : `${first.name} ×${first.runs}`);
    i = j;
  }
  return parts;
}
