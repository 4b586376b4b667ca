/**
 * The coverage report, made from the plan and the tally: per operation × declared status × check,
 * how many requests were judged; for a check that judged none of an operation's requests, why.
 * The plan is its source, so operations the suite cannot test yet are listed with their reason.
 */
import { jsonRequestBody, operationName } from '../../src/core/openapi/operation.js';
import { CHECKS, LIFECYCLE_CHECKS, type CheckId } from '../checks/index.js';
import type { CoverageEntry } from '../report.js';
import type { Tally } from './aggregate.js';
import { unissuedCredential } from './issued-credentials.js';
import type { Plan } from './plan.js';

/** "createPlant (POST /plants)", or "POST /plants" without an operationId. */
export function operationLabel(plan: Pick<Plan, 'operation'>): string {
  const route = `${plan.operation.method.toUpperCase()} ${plan.operation.path}`;
  const name = operationName(plan.operation);
  return name === route ? route : `${name} (${route})`;
}

export function coverageOf(plans: readonly Plan[], tally: Tally, excluded: ReadonlyMap<CheckId, string>): CoverageEntry[] {
  // The tally read once, by plan and check: reading all of it for every plan and check took
  // minutes on DigitalOcean's document (about 500 operations, 21 checks, tens of thousands of cells).
  const cellsOf = new Map<string, Map<string, Array<{ status: string; cases: number }>>>();
  const lifecycleReached = new Set<string>();
  for (const [key, cases] of tally.coverage) {
    const [at = '', status = '', check = ''] = key.split('|');
    const byCheck = cellsOf.get(at) ?? new Map<string, Array<{ status: string; cases: number }>>();
    cellsOf.set(at, byCheck);
    const cells = byCheck.get(check) ?? [];
    byCheck.set(check, cells);
    cells.push({ status, cases });
    // Whether any lifecycle check judged a request sent to the plan (a list reached by created-item-listed, say).
    if ((LIFECYCLE_CHECKS as readonly string[]).includes(check)) lifecycleReached.add(at);
  }
  const entries: CoverageEntry[] = [];
  for (const [index, plan] of plans.entries()) {
    const operation = operationLabel(plan);
    for (const check of CHECKS) {
      const cells = [...(cellsOf.get(String(index))?.get(check.id) ?? [])].sort((a, b) => a.status.localeCompare(b.status));
      if (cells.length > 0) {
        for (const { status, cases } of cells) entries.push({ operation, status, check: check.id, cases });
        continue;
      }
      entries.push({ operation, status: '-', check: check.id, cases: 0, skipped: whySkipped(plan, check.id, excluded, lifecycleReached.has(String(index))) });
    }
  }
  return entries;
}

function whySkipped(plan: Plan, check: CheckId, excluded: ReadonlyMap<CheckId, string>, lifecycleSent: boolean): string {
  const out = excluded.get(check);
  if (out !== undefined) return out;
  // A plan's skip is the reason only where it left out what this check judges: all of the operation, or the kind of request it names.
  const skip = plan.skipped?.find((s) => s.what === 'every request' || plan.properties.length === 0 || concerns(s.what, check));
  if (skip !== undefined) return `${skip.what} not sent: ${skip.reason}`;
  if (check === 'stateful-model' && jsonRequestBody(plan.operation) === undefined) return 'not applicable: the model runs on operations that create';
  // An open refresh needs a credential all the same: its drawn one is judged only where the target is known to check them.
  if (check === 'auth-enforced' && plan.context.tokensValidated !== true && unissuedCredential(plan.operation) !== undefined) {
    return 'not judged: the run does not know the target checks credentials, so a refresh token it never issued may be honoured (pass --tokens-validated)';
  }
  if ((LIFECYCLE_CHECKS as readonly string[]).includes(check)) {
    // Steps of other kinds may have reached it (a list read by created-item-listed): then say so, never deny them.
    return lifecycleSent
      ? 'lifecycle steps went to this operation, none of the kind this check judges'
      : "no lifecycle step went to this operation (a resource's life runs from its create)";
  }
  return NOT_APPLICABLE[check] ?? 'no request of this run was its business';
}

/** Whether a skipped kind of request ("duplicate, stateful and lifecycle requests") is what `check` judges. */
function concerns(what: string, check: CheckId): boolean {
  if (check === 'duplicate-ids') return /duplicate/.test(what);
  if (check === 'stateful-model') return /stateful/.test(what);
  if ((LIFECYCLE_CHECKS as readonly string[]).includes(check)) return /lifecycle/.test(what);
  if (check === 'positive-acceptance' || check === 'response-reflects-request') return /\bvalid\b/.test(what);
  if (check === 'negative-rejection') return /\binvalid\b/.test(what);
  return false;
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
