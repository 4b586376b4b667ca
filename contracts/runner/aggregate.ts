/**
 * The tally of a run: verdicts counted per check while the run goes on, problems grouped by
 * their kind (the check's typed ProblemKey), and at the end each check's status. Grouping is what
 * makes 200 requests refused for the same reason one shrunk finding, not 200.
 */
import { CHECKS, judge, type CheckContext, type CheckId, type Exchange, type Verdict } from '../checks/index.js';
import type { CheckResult, CheckStatus, Finding } from '../report.js';
import { declaredResponse } from '../../src/core/openapi/operation.js';

/** A verdict that is not a pass: the check found a problem. */
export type ProblemVerdict = Verdict & { readonly outcome: 'fail' | 'warn' };

export interface Occurrence {
  /** The property that sent it. */
  readonly property: string;
  /** fast-check's path to the run that sent it (its index, or a replayed path); undefined for fixed probes. */
  readonly startPath: string | undefined;
  /** The operation's plan it belongs to (index into the run's plans). */
  readonly plan: number;
  readonly exchange: Exchange;
  readonly verdict: ProblemVerdict;
}

export interface ProblemGroup {
  readonly check: CheckId;
  readonly signature: string;
  readonly first: Occurrence;
  count: number;
}

export interface Tally {
  readonly cases: Map<CheckId, number>;
  /** Checks left out of the run (--checks, --exclude-checks): they judge nothing. */
  readonly excluded: ReadonlySet<CheckId>;
  /** Judged requests per plan, declared status and check: "<plan>|<status>|<check>" → count (see coverage.ts). */
  readonly coverage: Map<string, number>;
  readonly groups: Map<string, ProblemGroup>;
  failures: number;
  warnings: number;
}

/** The tally as it is now, kept apart from what is recorded later (a halted run reports what it had judged when halted). */
export function snapshotOf(tally: Tally): Tally {
  return {
    ...tally,
    cases: new Map(tally.cases),
    coverage: new Map(tally.coverage),
    groups: new Map([...tally.groups].map(([signature, group]) => [signature, { ...group }])),
  };
}

export function newTally(excluded: ReadonlySet<CheckId> = new Set()): Tally {
  return { cases: new Map(CHECKS.map((c) => [c.id, 0])), excluded, coverage: new Map(), groups: new Map(), failures: 0, warnings: 0 };
}

/** The declared response an answer counts under ("201", "4XX", "default"), or what it was instead. */
export function coveredStatus(context: CheckContext, exchange: Exchange): string {
  const { status, error } = exchange.response;
  if (status === undefined) return error?.kind ?? 'no answer';
  return declaredResponse(context.operation, status)?.code ?? `${status} (undeclared)`;
}

/** The problem's kind as one string, a map key: the check, its outcome and its ProblemKey (with the request's facts and the answer for a key by request). */
function signatureOf(check: CheckId, exchange: Exchange, problem: ProblemVerdict): string {
  const { key } = problem;
  if (key.by === 'answer') return [check, problem.outcome, key.fault].join('|');
  const { facts, response } = exchange;
  const answer = response.error?.kind ?? String(response.status);
  return [check, problem.outcome, facts.role, facts.kind, facts.target, facts.breaks ?? '', answer, key.rule].join('|');
}

export function record(tally: Tally, exchanges: readonly Exchange[], context: CheckContext, where: Omit<Occurrence, 'exchange' | 'verdict'>): void {
  for (const exchange of exchanges) {
    const status = coveredStatus(context, exchange);
    for (const { check, verdict } of judge(exchange, context)) {
      if (tally.excluded.has(check)) continue;
      tally.cases.set(check, (tally.cases.get(check) ?? 0) + 1);
      const cell = `${where.plan}|${status}|${check}`;
      tally.coverage.set(cell, (tally.coverage.get(cell) ?? 0) + 1);
      if (verdict.outcome === 'pass') continue;
      if (verdict.outcome === 'fail') tally.failures += 1;
      else tally.warnings += 1;
      const signature = signatureOf(check, exchange, verdict);
      const group = tally.groups.get(signature);
      if (!group) tally.groups.set(signature, { check, signature, first: { ...where, exchange, verdict }, count: 1 });
      else {
        group.count += 1;
        // A fixed probe cannot be shrunk or replayed: the first occurrence that can stands for the group.
        if (group.first.startPath === undefined && where.startPath !== undefined)
          tally.groups.set(signature, { ...group, first: { ...where, exchange, verdict } });
      }
    }
  }
}

/** The first exchange in `exchanges` showing the problem of `group`, with its verdict (what shrinking must keep finding). */
export function occurrenceIn(
  group: ProblemGroup,
  exchanges: readonly Exchange[],
  context: CheckContext,
): { exchange: Exchange; verdict: ProblemVerdict } | undefined {
  for (const exchange of exchanges) {
    for (const { check, verdict } of judge(exchange, context)) {
      if (check === group.check && verdict.outcome !== 'pass' && signatureOf(check, exchange, verdict) === group.signature) {
        return { exchange, verdict };
      }
    }
  }
  return undefined;
}

/** Each check's result in registry order: failed, warned, passed (judged something) or skipped (judged nothing). */
export function checkResults(tally: Tally, findings: readonly Finding[]): CheckResult[] {
  return CHECKS.map((check): CheckResult => {
    const own = findings.filter((f) => f.check === check.id);
    const cases = tally.cases.get(check.id) ?? 0;
    const status: CheckStatus = own.some((f) => f.severity === 'failure') ? 'failed' : own.length > 0 ? 'warned' : cases > 0 ? 'passed' : 'skipped';
    return { id: check.id, title: check.title, description: check.description, status, cases, findings: own };
  });
}
