/**
 * Counting verdicts while the run goes on, and grouping problems: one group per check and kind
 * of problem (the check's typed ProblemKey), so that 200 requests refused for the same reason
 * make one shrunk finding, not 200.
 */
import { CHECKS, judge, type CheckContext, type CheckId, type Exchange, type Verdict } from '../checks/index.js';

export interface Occurrence {
  /** The property that sent it. */
  readonly property: string;
  /** fast-check's path to the run that sent it (its index, or a replayed path); undefined for fixed probes. */
  readonly startPath: string | undefined;
  /** The operation's plan it belongs to (index into the run's plans). */
  readonly plan: number;
  readonly exchange: Exchange;
  readonly verdict: Verdict & { readonly outcome: 'fail' | 'warn' };
}

export interface ProblemGroup {
  readonly check: CheckId;
  readonly signature: string;
  readonly first: Occurrence;
  count: number;
}

export interface Tally {
  readonly cases: Map<CheckId, number>;
  readonly groups: Map<string, ProblemGroup>;
  failures: number;
  warnings: number;
}

export function newTally(): Tally {
  return { cases: new Map(CHECKS.map((c) => [c.id, 0])), groups: new Map(), failures: 0, warnings: 0 };
}

/** The problem's kind as one string, a map key: the check, its outcome and its ProblemKey (with the request's facts and the answer for a key by request). */
export function signatureOf(check: CheckId, exchange: Exchange, problem: Verdict & { readonly outcome: 'fail' | 'warn' }): string {
  const { key } = problem;
  if (key.by === 'answer') return [check, problem.outcome, key.fault].join('|');
  const { facts, response } = exchange;
  const answer = response.error?.kind ?? String(response.status);
  return [check, problem.outcome, facts.role, facts.kind, facts.target, facts.breaks ?? '', answer, key.rule].join('|');
}

export function record(tally: Tally, exchanges: readonly Exchange[], context: CheckContext, where: Omit<Occurrence, 'exchange' | 'verdict'>): void {
  for (const exchange of exchanges) {
    for (const { check, verdict } of judge(exchange, context)) {
      tally.cases.set(check, (tally.cases.get(check) ?? 0) + 1);
      if (verdict.outcome === 'pass') continue;
      if (verdict.outcome === 'fail') tally.failures += 1;
      else tally.warnings += 1;
      const signature = signatureOf(check, exchange, verdict);
      const group = tally.groups.get(signature);
      if (!group) tally.groups.set(signature, { check, signature, first: { ...where, exchange, verdict }, count: 1 });
      else {
        group.count += 1;
        // A fixed probe cannot be shrunk or replayed: the first occurrence that can stands for the group.
        if (group.first.startPath === undefined && where.startPath !== undefined) tally.groups.set(signature, { ...group, first: { ...where, exchange, verdict } });
      }
    }
  }
}

/** Whether `exchanges` still show the problem of `group` (what shrinking must keep true). */
export function stillShows(group: ProblemGroup, exchanges: readonly Exchange[], context: CheckContext): boolean {
  return occurrenceIn(group, exchanges, context) !== undefined;
}

/** The first exchange in `exchanges` showing the problem, with its verdict. */
export function occurrenceIn(
  group: ProblemGroup,
  exchanges: readonly Exchange[],
  context: CheckContext,
): { exchange: Exchange; verdict: Verdict & { outcome: 'fail' | 'warn' } } | undefined {
  for (const exchange of exchanges) {
    for (const { check, verdict } of judge(exchange, context)) {
      if (check === group.check && verdict.outcome !== 'pass' && signatureOf(check, exchange, verdict) === group.signature) {
        return { exchange, verdict };
      }
    }
  }
  return undefined;
}
