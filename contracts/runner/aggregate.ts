/**
 * The tally of a run: verdicts counted per check while the run goes on, problems grouped by
 * their kind (the check's typed ProblemKey), and at the end each check's status. Grouping is what
 * makes 200 requests refused for the same reason one shrunk finding, not 200.
 */
import { CHECKS, judge, type CheckContext, type CheckId, type Exchange, type Verdict } from '../checks/index.js';
import type { CheckResult, CheckStatus, Finding } from '../report.js';
import { declaredResponse } from '../../src/core/openapi/operation.js';
import type { Operation } from '../../src/core/openapi/load-document.js';

/** A verdict that is not a pass: the check found a problem. */
export type ProblemVerdict = Verdict & { readonly outcome: 'fail' | 'warn' };

export interface Occurrence {
  /** The property that sent it. */
  readonly property: string;
  /** fast-check's path to the run that sent it (its index, or a replayed path); undefined for fixed probes. */
  readonly startPath: string | undefined;
  /** The operation's plan it belongs to (index into the run's plans). */
  readonly plan: number;
  /** Its case's place in the run's sending order (sample.ts), which the seed alone decides. */
  readonly order?: number;
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
  /** Each operation's plan index: a step sent to another operation (a lifecycle's read, list or delete) counts under its own. */
  readonly planOf: ReadonlyMap<Operation, number>;
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

export function newTally(excluded: ReadonlySet<CheckId> = new Set(), planOf: ReadonlyMap<Operation, number> = new Map()): Tally {
  return { cases: new Map(CHECKS.map((c) => [c.id, 0])), excluded, coverage: new Map(), groups: new Map(), planOf, failures: 0, warnings: 0 };
}

/** The declared response an answer counts under ("201", "4XX", "default"), or what it was instead. */
export function coveredStatus(context: CheckContext, exchange: Exchange): string {
  const { status, error } = exchange.response;
  if (status === undefined) return error?.kind ?? 'no answer';
  return declaredResponse(exchange.operation ?? context.operation, status)?.code ?? `${status} (undeclared)`;
}

/** The problem's kind as one string, a map key: the check, its outcome and its ProblemKey (with the request's facts and the answer for a key by request). */
function signatureOf(check: CheckId, exchange: Exchange, problem: ProblemVerdict, context: CheckContext): string {
  const { key } = problem;
  // Never one finding for two operations: what one operation does wrong says nothing about another's.
  const operation = exchange.operation ?? context.operation;
  const where = `${operation.method} ${operation.path}`;
  if (key.by === 'answer') return [check, where, problem.outcome, key.fault].join('|');
  const { facts, response } = exchange;
  const answer = response.error?.kind ?? String(response.status);
  return [check, where, problem.outcome, facts.role, facts.kind, facts.target, facts.breaks ?? '', answer, key.rule].join('|');
}

export function record(tally: Tally, exchanges: readonly Exchange[], context: CheckContext, where: Omit<Occurrence, 'exchange' | 'verdict'>): void {
  for (const exchange of exchanges) {
    const status = coveredStatus(context, exchange);
    const plan = (exchange.operation === undefined ? undefined : tally.planOf.get(exchange.operation)) ?? where.plan;
    for (const { check, verdict } of judge(exchange, context)) {
      if (tally.excluded.has(check)) continue;
      tally.cases.set(check, (tally.cases.get(check) ?? 0) + 1);
      const cell = `${plan}|${status}|${check}`;
      tally.coverage.set(cell, (tally.coverage.get(cell) ?? 0) + 1);
      if (verdict.outcome === 'pass') continue;
      if (verdict.outcome === 'fail') tally.failures += 1;
      else tally.warnings += 1;
      const signature = signatureOf(check, exchange, verdict, context);
      const group = tally.groups.get(signature);
      if (!group) tally.groups.set(signature, { check, signature, first: { ...where, exchange, verdict }, count: 1 });
      else {
        group.count += 1;
        if (standsBefore(where, group.first)) tally.groups.set(signature, { ...group, first: { ...where, exchange, verdict } });
      }
    }
  }
}

/**
 * Whether an occurrence should stand for its group rather than the one standing now. A fixed probe
 * cannot be shrunk or replayed, so any case that can comes before it. Among cases, the one sent
 * first in the seed's order, not the one answered first: answers come back in the order of the
 * target's load, and one seed must report the same finding, replay and shrunk case each time.
 */
function standsBefore(where: Omit<Occurrence, 'exchange' | 'verdict'>, standing: Occurrence): boolean {
  if (where.startPath === undefined) return false;
  if (standing.startPath === undefined) return true;
  return where.order !== undefined && standing.order !== undefined && where.order < standing.order;
}

/** The first exchange in `exchanges` showing the problem of `group`, with its verdict (what shrinking must keep finding). */
export function occurrenceIn(
  group: ProblemGroup,
  exchanges: readonly Exchange[],
  context: CheckContext,
): { exchange: Exchange; verdict: ProblemVerdict } | undefined {
  for (const exchange of exchanges) {
    for (const { check, verdict } of judge(exchange, context)) {
      if (check === group.check && verdict.outcome !== 'pass' && signatureOf(check, exchange, verdict, context) === group.signature) {
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
