/**
 * The report as JSON, for other tools. Its fields are stable: the report's data, with each
 * finding's message and curl commands in words and the run's replay flags, as the console prints them.
 */
import type { CheckResult, Finding, ReceivedResponse, SentRequest, VerifyReport } from '../report.js';
import { findingCurl, findingMessage } from './finding.js';
import { replayFlagsOf } from './replay.js';

export interface JsonFinding {
  readonly check: Finding['check'];
  readonly severity: Finding['severity'];
  readonly message: string;
  readonly expected: string;
  readonly expectation?: Finding['expectation'] | undefined;
  readonly actual: string;
  readonly request: SentRequest;
  /** Undefined when there was no answer; JSON.stringify leaves it out. */
  readonly response?: ReceivedResponse | undefined;
  /** Ready curl commands that replay `before`, then `request`, one a line. */
  readonly curl: string;
  readonly seed: number;
  readonly shrunk: boolean;
  readonly shrinkNote?: string;
  readonly before?: readonly SentRequest[];
  readonly path?: string;
}

export interface JsonCheckResult extends Omit<CheckResult, 'findings'> {
  readonly findings: readonly JsonFinding[];
}

export interface JsonReport extends Omit<VerifyReport, 'replayOptions' | 'checks'> {
  /** The flags a finding replays under, e.g. `--token "$TOKEN" --expect-unique-ids` (never a token's value). */
  readonly replayFlags: string;
  readonly checks: readonly JsonCheckResult[];
}

export function renderJson(report: VerifyReport): string {
  // No bigint reaches the report (bodies are text), so plain JSON.stringify is exact.
  return `${JSON.stringify(jsonReport(report), null, 2)}\n`;
}

/** The report as the JSON shows it (fields in the order they are written). */
export function jsonReport(report: VerifyReport): JsonReport {
  const { target, spec, seed, runs, casesRun, durationMs, casesPerSecond, shrinkMs, coverage, hints, ok } = report;
  const checks = report.checks.map(({ findings, ...check }) => ({ ...check, findings: findings.map((finding) => jsonFinding(finding, report.target)) }));
  const extra = {
    ...(report.plan === undefined ? {} : { plan: report.plan }),
    ...(report.stoppedEarly === undefined ? {} : { stoppedEarly: report.stoppedEarly }),
    ...(report.timeBudget === undefined ? {} : { timeBudget: report.timeBudget }),
    ...(report.incomplete === undefined ? {} : { incomplete: report.incomplete }),
  };
  const replayFlags = replayFlagsOf(report.replayOptions);
  return { target, spec, seed, runs, casesRun, durationMs, casesPerSecond, shrinkMs, replayFlags, checks, coverage, hints, ...extra, ok };
}

function jsonFinding(finding: Finding, target: string): JsonFinding {
  const { check, severity, expected, expectation, actual, request, response, seed, shrunk, shrinkNote, before, path } = finding;
  return {
    check,
    severity,
    message: findingMessage(finding),
    expected,
    expectation,
    actual,
    request: jsonRequest(request),
    response,
    curl: findingCurl(finding, target),
    seed,
    shrunk,
    ...(shrinkNote === undefined ? {} : { shrinkNote }),
    ...(before === undefined ? {} : { before: before.map(jsonRequest) }),
    ...(path === undefined ? {} : { path }),
  };
}

/** A request as the JSON shows it: without credentialsAltered, which only the regression files use. */
function jsonRequest(request: SentRequest): SentRequest {
  const { credentialsAltered, ...shown } = request;
  void credentialsAltered;
  return shown;
}
