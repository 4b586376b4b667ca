/**
 * The report for people at a terminal: a progress line while it runs (stderr), then a table of
 * checks and every finding with what was expected, what came back, how to replay it and the curl.
 */
import type { CheckStatus, Finding, TimeBudget, VerifyProgress, VerifyReport } from '../report.js';
import { findingCurl, findingMessage } from './finding.js';
import { reportTitle } from './heading.js';
import { replayCommand } from './replay.js';
import { compactCoverageLines, coverageLines, planLines } from './coverage.js';

export interface ConsoleStyle {
  /** ANSI colours (on for a TTY unless NO_COLOR is set). */
  readonly color: boolean;
  /** --full-coverage: every operation × status × check (by default one line per operation; JSON and JUnit always have it whole). */
  readonly fullCoverage?: boolean;
}

const MARK: Record<CheckStatus, string> = { passed: '✓', failed: '✗', warned: '!', skipped: '-' };
const COLOR: Record<CheckStatus, string> = { passed: '32', failed: '31', warned: '33', skipped: '90' };

function paint(style: ConsoleStyle, code: string, text: string): string {
  return style.color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** One line of progress, e.g. "verifying http://…: 420/1650 requests, 0 failures, 1 warning". */
export function progressLine(target: string, progress: VerifyProgress): string {
  const warnings = `${progress.warnings} warning${progress.warnings === 1 ? '' : 's'}`;
  return `verifying ${target}: ${progress.casesRun}/${progress.casesPlanned} requests, ${progress.failures} failure${progress.failures === 1 ? '' : 's'}, ${warnings}`;
}

/**
 * A progress callback that rewrites one line on a TTY and stays quiet elsewhere (a log would
 * fill with hundreds of lines), plus `done()` to clear the line before the report is printed.
 */
export function progressPrinter(target: string, stream: NodeJS.WriteStream): { onProgress: (p: VerifyProgress) => void; done: () => void } {
  if (!stream.isTTY) return { onProgress: () => undefined, done: () => undefined };
  let shown = false;
  return {
    onProgress: (progress) => {
      shown = true;
      stream.write(`\r\u001b[2K${progressLine(target, progress)}`);
    },
    done: () => {
      if (shown) stream.write('\r\u001b[2K');
    },
  };
}

export function renderConsoleReport(report: VerifyReport, style: ConsoleStyle = { color: false }): string {
  const lines: string[] = [];
  lines.push(reportTitle(report));
  lines.push(`document ${report.spec}, seed ${report.seed}, ${report.runs} runs per property`);
  if (report.timeBudget !== undefined) lines.push(timeBudgetLine(report.timeBudget));
  if (report.incomplete !== undefined) lines.push('', `INCOMPLETE: ${report.incomplete}`);
  // What failed first, on one screen: the verdict, the checks that failed or warned, what the run left, hints.
  lines.push('', summaryLine(report), ...outcomeLines(report, style));
  for (const hint of report.hints) lines.push(`HINT: ${hint}`);
  if (report.stoppedEarly !== undefined) lines.push(report.stoppedEarly);
  const findings = report.checks.flatMap((check) => check.findings);
  if (findings.length > 0) {
    lines.push('');
    findings.forEach((finding, index) => lines.push(...renderFinding(report, finding, index + 1, style), ''));
  } else {
    lines.push('');
  }
  const header = ['check', 'status', 'cases', 'findings'];
  const rows = report.checks.map((check) => [check.id, `${MARK[check.status]} ${check.status}`, String(check.cases), String(check.findings.length)]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[], status?: CheckStatus): string => {
    const [name = '', mark = '', cases = '', found = ''] = row;
    const statusCell = mark.padEnd(widths[1] ?? 0);
    return `  ${name.padEnd(widths[0] ?? 0)}  ${status ? paint(style, COLOR[status], statusCell) : statusCell}  ${cases.padStart(widths[2] ?? 0)}  ${found.padStart(widths[3] ?? 0)}`;
  };
  // A dry run judged nothing: its checks are in the plan below.
  if (report.plan === undefined) {
    lines.push(line(header));
    report.checks.forEach((check, index) => lines.push(line(rows[index] ?? [], check.status)));
    lines.push('');
  }
  if (report.plan !== undefined) lines.push(...planLines(report.plan, report.coverage));
  else lines.push(...(style.fullCoverage === true ? coverageLines(report.coverage) : compactCoverageLines(report.coverage)));
  lines.push('', summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** The checks that failed or warned, with their findings' count, and what the run created and left in the target. */
function outcomeLines(report: VerifyReport, style: ConsoleStyle): string[] {
  const lines: string[] = [];
  for (const status of ['failed', 'warned'] as const) {
    const checks = report.checks.filter((check) => check.status === status);
    if (checks.length === 0) continue;
    const listed = checks.map((check) => `${check.id} (${check.findings.length} finding${check.findings.length === 1 ? '' : 's'})`).join(', ');
    lines.push(`${paint(style, COLOR[status], status)}: ${listed}`);
  }
  const flaky = report.checks.flatMap((check) => check.findings).filter((finding) => finding.reproduced === false);
  if (flaky.length > 0) {
    const how = flaky.some((finding) => finding.severity === 'failure') ? 'failed by --strict' : 'warnings; --strict fails them';
    lines.push(
      `${paint(style, COLOR.warned, 'flaky')}: ${flaky.length} finding${flaky.length === 1 ? '' : 's'} seen among concurrent cases did not reproduce alone (${how})`,
    );
  }
  for (const items of report.leftBehind ?? []) {
    const ids = items.ids.length === 0 ? '' : `: ${items.ids.join(', ')}${items.ids.length < items.count ? ', …' : ''}`;
    lines.push(`left in the target: ${items.count} item${items.count === 1 ? '' : 's'} of ${items.resource} (${items.reason})${ids}`);
  }
  return lines;
}

/** One finding as numbered lines: what was wrong, expected and actual, how to replay it, and its curl. */
export function renderFinding(
  report: Pick<VerifyReport, 'target' | 'replayOptions'>,
  finding: Finding,
  number: number,
  style: ConsoleStyle = { color: false },
): string[] {
  const severity = finding.severity === 'failure' ? paint(style, '31', 'FAILURE') : paint(style, '33', 'WARNING');
  const replay = replayCommand(report, finding) ?? '(a fixed probe: run again to repeat it)';
  const lines = [
    `${number}. ${severity} ${finding.check}: ${oneLine(findingMessage(finding))}`,
    `   expected: ${oneLine(finding.expected)}`,
    `   actual:   ${oneLine(finding.actual)}`,
    `   replay:   ${replay}${finding.shrunk && finding.shrinkNote === undefined ? ' (shrunk)' : ''}`,
    ...(finding.shrinkNote === undefined ? [] : [`   note:     ${finding.shrinkNote}`]),
    `   curl:`,
    ...findingCurl(finding, report.target)
      .split('\n')
      .map((line) => `     ${oneLine(shorten(line))}`),
  ];
  return lines;
}

/** A screenful at most: a command with a huge body is cut here (the JSON and JUnit reports keep it whole). */
const CURL_SHOWN = 2_000;

function shorten(line: string): string {
  return line.length <= CURL_SHOWN
    ? line
    : `${line.slice(0, CURL_SHOWN)} … [${line.length} characters; the whole command is in the --json and --junit reports]`;
}

/**
 * Text from the target (bodies, messages) made safe for a terminal: newlines shown as \n, and
 * other control characters (an ESC could recolour or rewrite the screen) as \uXXXX.
 */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n').replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** "time budget: 5 s per request (--timeout-ms), the run unlimited (--time-budget-ms), shrinking 60 s". */
export function timeBudgetLine(budget: TimeBudget): string {
  const s = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
  const run = budget.runMs === undefined ? 'the run unlimited' : `the run ${s(budget.runMs)}`;
  return `time budget: ${s(budget.requestTimeoutMs)} per request (--timeout-ms), ${run} (--time-budget-ms), shrinking ${s(budget.shrinkMs)}`;
}

export function summaryLine(report: VerifyReport): string {
  const count = (status: CheckStatus): number => report.checks.filter((check) => check.status === status).length;
  const parts = [`${count('passed')} passed`, `${count('failed')} failed`, `${count('warned')} warned`, `${count('skipped')} skipped`];
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  if (report.plan !== undefined) return `DRY RUN: ${report.plan.length} operations planned, nothing sent, seed ${report.seed}`;
  const verdict = report.incomplete !== undefined ? 'NO VERDICT (incomplete run)' : report.ok ? 'CONFORMS' : 'DOES NOT CONFORM';
  return (
    `${verdict}: ${report.checks.length} checks, ${parts.join(', ')}; ` +
    `${report.casesRun} requests in ${seconds(report.durationMs - report.shrinkMs)} s (${report.casesPerSecond} cases/s), ` +
    `shrinking ${seconds(report.shrinkMs)} s, seed ${report.seed}`
  );
}
