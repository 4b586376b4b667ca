/** The suite's checks, in report order, and judging one exchange by all of them. */
import { authEnforced } from './auth-enforced.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { duplicateIds } from './duplicate-ids.js';
import { negativeRejection } from './negative-rejection.js';
import { noServerErrors } from './no-server-errors.js';
import { positiveAcceptance } from './positive-acceptance.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { responseReflectsRequest } from './response-reflects-request.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { statefulModel } from './stateful-model.js';
import { statusConformance } from './status-conformance.js';
import { updateApplied } from './update-applied.js';
import { storedContentShown } from './stored-content-shown.js';
import { listFilterHonoured } from './list-filter-honoured.js';
import { listTotalCounted } from './list-total-counted.js';
import {
  createdItemListed,
  deletedIdReusable,
  deletedItemNotListed,
  ensureResourceAvailability,
  listLimitRespected,
  deletedItemGone,
} from './resource-lifecycle.js';
import type { Check, CheckContext, Exchange, Verdict } from './types.js';

export type {
  Check,
  CheckContext,
  Exchange,
  ExchangeFacts,
  ExchangeRole,
  ExpectedValue,
  ItemMark,
  Problem,
  ProblemKey,
  RefusalShape,
  StateFacts,
  Verdict,
} from './types.js';

/** The registry: the report lists checks in this order, and CheckId is made of these ids. */
export const CHECKS = [
  positiveAcceptance,
  negativeRejection,
  noServerErrors,
  statusConformance,
  contentTypeConformance,
  responseSchemaConformance,
  responseHeadersConformance,
  authEnforced,
  responseReflectsRequest,
  duplicateIds,
  statefulModel,
  ensureResourceAvailability,
  deletedItemGone,
  createdItemListed,
  deletedItemNotListed,
  listLimitRespected,
  listTotalCounted,
  deletedIdReusable,
  updateApplied,
  storedContentShown,
  listFilterHonoured,
] as const satisfies readonly Check[];

/** Every check the suite runs, by its stable id (used in JUnit names, --json, regression files). */
export type CheckId = (typeof CHECKS)[number]['id'];

/** The checks that judge a resource's life (the lifecycle's steps): a document with a create only, as the seed, gives them nothing to judge. */
export const LIFECYCLE_CHECKS: readonly CheckId[] = [
  'ensure-resource-availability',
  'deleted-item-gone',
  'created-item-listed',
  'deleted-item-not-listed',
  'list-limit-respected',
  'list-total-counted',
  'deleted-id-reusable',
  'update-applied',
  'stored-content-shown',
  'list-filter-honoured',
];

export interface Judgement {
  readonly check: CheckId;
  readonly verdict: Verdict;
}

/** Every check's verdict on one exchange (checks it is none of the business of are left out). */
export function judge(exchange: Exchange, context: CheckContext): Judgement[] {
  const judgements: Judgement[] = [];
  // A lifecycle step sent to another operation than the plan's is held to that operation's declarations.
  const own = exchange.operation === undefined ? context : { ...context, operation: exchange.operation, limitParameter: undefined };
  for (const check of CHECKS) {
    const verdict = check.judge(exchange, own);
    if (verdict !== undefined) judgements.push({ check: check.id, verdict });
  }
  return judgements;
}
