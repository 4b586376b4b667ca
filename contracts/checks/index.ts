/** The suite's checks, in report order, and judging one exchange by all of them. */
import type { CheckId } from '../report.js';
import { authEnforced } from './auth-enforced.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { duplicateIds } from './duplicate-ids.js';
import { negativeRejection } from './negative-rejection.js';
import { noServerErrors } from './no-server-errors.js';
import { positiveAcceptance } from './positive-acceptance.js';
import { responseReflectsRequest } from './response-reflects-request.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { statefulModel } from './stateful-model.js';
import { statusConformance } from './status-conformance.js';
import type { Check, CheckContext, Exchange, Verdict } from './types.js';

export type { Check, CheckContext, Exchange, ExchangeFacts, ExchangeRole, Problem, Verdict } from './types.js';

export const CHECKS: readonly Check[] = [
  positiveAcceptance,
  negativeRejection,
  noServerErrors,
  statusConformance,
  contentTypeConformance,
  responseSchemaConformance,
  authEnforced,
  responseReflectsRequest,
  duplicateIds,
  statefulModel,
];

export function checkById(id: CheckId): Check {
  const check = CHECKS.find((c) => c.id === id);
  if (check === undefined) throw new RangeError(`no check "${id}"`);
  return check;
}

export interface Judgement {
  readonly check: CheckId;
  readonly verdict: Verdict;
}

/** Every check's verdict on one exchange (checks it is none of the business of are left out). */
export function judge(exchange: Exchange, context: CheckContext): Judgement[] {
  const judgements: Judgement[] = [];
  for (const check of CHECKS) {
    const verdict = check.judge(exchange, context);
    if (verdict !== undefined) judgements.push({ check: check.id, verdict });
  }
  return judgements;
}
