/**
 * JUnit XML for CI dashboards: one testcase per check; a <failure> per failing finding (message,
 * expected/actual, replay and curl); warnings in <system-out> (the case still passes); a check
 * that judged nothing is <skipped>.
 */
import type { CheckResult, Finding, VerifyReport } from '../report.js';
import { findingCurl, findingMessage } from './finding.js';
import { reportTitle } from './heading.js';
import { replayCommand } from './replay.js';
import { escapeXml as x } from './xml.js';

const CLASS_NAME = 'plantstore.conformance';

export function renderJUnit(report: VerifyReport, timestamp = new Date()): string {
  // A run cut short is a failing testcase of its own: a dashboard must not read it as a pass.
  const incomplete = report.incomplete === undefined ? [] : [report.incomplete];
  const failures = report.checks.filter((check) => check.status === 'failed').length + incomplete.length;
  const skippedCells = report.coverage.filter((cell) => cell.skipped !== undefined);
  const skipped = report.checks.filter((check) => check.status === 'skipped').length + skippedCells.length;
  const tests = report.checks.length + skippedCells.length + incomplete.length;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const suite = reportTitle(report);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plantstore verify" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">`,
    `  <testsuite name="${x(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}" timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, '')}">`,
    '    <properties>',
    ...Object.entries({
      target: report.target,
      spec: report.spec,
      seed: String(report.seed),
      runs: String(report.runs),
      casesRun: String(report.casesRun),
      casesPerSecond: String(report.casesPerSecond),
      shrinkMs: String(report.shrinkMs),
    }).map(([name, value]) => `      <property name="${x(name)}" value="${x(value)}"/>`),
    '    </properties>',
    ...incomplete.map(
      (reason) =>
        `    <testcase classname="${CLASS_NAME}" name="the run completes" time="${seconds}"><failure message="${x(reason)}" type="incomplete"/></testcase>`,
    ),
    ...report.checks.flatMap((check) => testcase(report, check)),
    // The coverage report's gaps: one skipped testcase per operation and check that judged nothing, with the reason.
    ...skippedCells.map(
      (cell) =>
        `    <testcase classname="${CLASS_NAME}.coverage" name="${x(`${cell.operation}: ${cell.check}`)}" time="0"><skipped message="${x(cell.skipped ?? '')}"/></testcase>`,
    ),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function testcase(report: VerifyReport, check: CheckResult): string[] {
  const open = `    <testcase classname="${CLASS_NAME}" name="${x(`${check.id}: ${check.description}`)}" time="0">`;
  const failing = check.findings.filter((f) => f.severity === 'failure');
  const warnings = check.findings.filter((f) => f.severity === 'warning');
  const body: string[] = [];
  if (check.status === 'skipped') body.push(`      <skipped message="${x(`${check.id} judged no request in this run`)}"/>`);
  for (const finding of failing) {
    body.push(`      <failure message="${x(findingMessage(finding))}" type="${x(finding.check)}">${x(details(report, finding))}</failure>`);
  }
  const out = [`${check.cases} requests judged.`, ...warnings.map((w) => `WARNING: ${findingMessage(w)}\n${details(report, w)}`)].join('\n\n');
  body.push(`      <system-out>${x(out)}</system-out>`);
  return [open, ...body, '    </testcase>'];
}

function details(report: VerifyReport, finding: Finding): string {
  const replay = replayCommand(report, finding) ?? '(a fixed probe)';
  const note = finding.shrinkNote === undefined ? [] : [finding.shrinkNote];
  return [`expected: ${finding.expected}`, `actual: ${finding.actual}`, `replay: ${replay}`, ...note, `curl:\n${findingCurl(finding, report.target)}`].join(
    '\n',
  );
}
