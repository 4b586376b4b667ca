/**
 * Counting verdicts while the run goes on, and grouping problems: one group per check and kind
 * of problem (role, case target, rule broken, status), so that 200 requests refused for the
 * same reason make one shrunk finding, not 200.
 */
import { CHECKS, judge, type CheckContext, type Exchange, type Verdict } from '../checks/index.js';
import type { CheckId } from '../report.js';

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

/** What makes two problems "the same kind": see the module comment. */
export function signatureOf(check: CheckId, exchange: Exchange, verdict: Verdict): string {
  if (verdict.outcome === 'pass') return `${check}|pass`;
  if (verdict.key !== undefined) return [check, verdict.outcome, verdict.key].join('|');
  const { facts, response } = exchange;
  const answer = response.error?.kind ?? String(response.status);
  // The part of "expected" before a colon names the property for response-reflects-request ("name: …", "tag: …").
  const aspect = verdict.expected.split(':')[0] ?? '';
  return [check, verdict.outcome, facts.role, facts.kind, facts.target, facts.breaks ?? '', answer, aspect].join('|');
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
  return exchanges.some((exchange) =>
    judge(exchange, context).some((j) => j.check === group.check && j.verdict.outcome !== 'pass' && signatureOf(j.check, exchange, j.verdict) === group.signature),
  );
}

/** The first exchange in `exchanges` showing the problem, with its verdict. */
export function occurrenceIn(
  group: ProblemGroup,
  exchanges: readonly Exchange[],
  context: CheckContext,
): { exchange: Exchange; verdict: Verdict & { outcome: 'fail' | 'warn' } } | undefined {
  for (const exchange of exchanges) {
    for (const j of judge(exchange, context)) {
      if (j.check === group.check && j.verdict.outcome !== 'pass' && signatureOf(j.check, exchange, j.verdict) === group.signature) {
        return { exchange, verdict: j.verdict };
      }
    }
  }
  return undefined;
}
