/**
 * The coverage report, made from the plan and the tally: per operation × declared status × check,
 * how many requests were judged; for a check that judged none of an operation's requests, why.
 * The plan is its source, so operations the suite cannot test yet are listed with their reason.
 */
import { operationName } from '../../src/core/openapi/operation.js';
import { CHECKS, type CheckId } from '../checks/index.js';
import type { CoverageEntry } from '../report.js';
import type { Tally } from './aggregate.js';
import type { Plan } from './plan.js';

/** "createPlant (POST /plants)", or "POST /plants" without an operationId. */
export function operationLabel(plan: Pick<Plan, 'operation'>): string {
  const route = `${plan.operation.method.toUpperCase()} ${plan.operation.path}`;
  const name = operationName(plan.operation);
  return name === route ? route : `${name} (${route})`;
}

export function coverageOf(plans: readonly Plan[], tally: Tally, excluded: ReadonlyMap<CheckId, string>): CoverageEntry[] {
  const entries: CoverageEntry[] = [];
  for (const [index, plan] of plans.entries()) {
    const operation = operationLabel(plan);
    for (const check of CHECKS) {
      const cells = [...tally.coverage.entries()]
        .map(([key, cases]) => ({ parts: key.split('|'), cases }))
        .filter(({ parts }) => parts[0] === String(index) && parts[2] === check.id)
        .map(({ parts, cases }) => ({ status: parts[1] ?? '', cases }))
        .sort((a, b) => a.status.localeCompare(b.status));
      if (cells.length > 0) {
        for (const { status, cases } of cells) entries.push({ operation, status, check: check.id, cases });
        continue;
      }
      entries.push({ operation, status: '-', check: check.id, cases: 0, skipped: whySkipped(plan, check.id, excluded) });
    }
  }
  return entries;
}

function whySkipped(plan: Plan, check: CheckId, excluded: ReadonlyMap<CheckId, string>): string {
  const out = excluded.get(check);
  if (out !== undefined) return out;
  const skip = plan.skipped?.[0];
  if (skip !== undefined) return `${skip.what} not sent: ${skip.reason}`;
  return NOT_APPLICABLE[check] ?? 'no request of this run was its business';
}

/** Why a check may judge nothing although every planned request was sent. */
const NOT_APPLICABLE: Partial<Record<CheckId, string>> = {
  'auth-enforced': 'not applicable: the operation needs no credentials',
  'duplicate-ids': "not applicable: no id of the resource's identifier in the request body (or no answer accepted one)",
  'stateful-model': 'not run: the model needs --stateful or --expect-unique-ids',
  'response-reflects-request': 'not applicable: no accepted answer carried a JSON object back',
  'content-type-conformance': 'no answer carried a body to judge',
  'response-schema-conformance': 'no answer had a declared schema to judge',
};
