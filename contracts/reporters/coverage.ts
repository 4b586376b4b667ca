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

/** --dry-run: per operation, the kinds of request and their runs, and what is skipped and why. */
export function planLines(plan: readonly PlannedOperation[]): string[] {
  const lines = ['plan (--dry-run: nothing was sent):'];
  for (const operation of plan) {
    lines.push(`  ${operation.operation}`);
    if (operation.properties.length > 0) {
      const runs = operation.properties.reduce((sum, property) => sum + property.runs, 0);
      lines.push(`    sends ${runs} cases: ${operation.properties.map((property) => `${property.name} ×${property.runs}`).join(', ')}`);
    }
    for (const skip of operation.skipped) lines.push(`    skips ${skip.what}: ${skip.reason}`);
  }
  return lines;
}
