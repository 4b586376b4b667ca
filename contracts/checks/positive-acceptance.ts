/**
 * A valid create must succeed. A refusal is re-tested by the runner with the same payload and a
 * never-used id (facts.retry), so that an id left over from an earlier run against a stateful
 * target is not taken for a fault:
 *   - retry refused too        → the payload was refused: failure;
 *   - retry accepted, id fresh → the target refused an id it cannot hold: failure;
 *   - retry accepted, id sent as generated (an edge value such as 0 or 2^53+1) → it may be
 *     stored already, so the refusal is allowed.
 * 5xx and transport errors belong to no-server-errors; which 2xx belongs to status-conformance.
 */
import { describeResponse, declaredCodesIn, isSuccess } from './declared.js';
import { fail, PASS, type Check } from './types.js';

export const positiveAcceptance: Check = {
  id: 'positive-acceptance',
  title: 'Valid requests are accepted',
  description: 'A valid payload with valid credentials gets a success (2xx) status.',
  judge({ request, response, facts }, { operation }) {
    if (facts.role !== 'create' || facts.kind !== 'valid') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isSuccess(status)) return PASS;
    const expected = `${declaredCodesIn(operation, 2)} (accepted)`;
    const expectation = { kind: 'status-class', classes: [2] } as const;
    const retry = facts.retry;
    const retryStatus = retry?.response.status;
    if (retry === undefined || retryStatus === undefined || retryStatus >= 500) {
      return fail({ expected, expectation, actual: describeResponse(response), message: `a valid request (${request.label}) was refused` });
    }
    if (!isSuccess(retryStatus)) {
      return fail({
        expected,
        expectation,
        actual: describeResponse(retry.response),
        message: `a valid request (${request.label}) was refused, also with a never-used id`,
        evidence: retry,
      });
    }
    if (facts.id?.freshness === 'fresh') {
      return fail({
        expected,
        expectation,
        actual: describeResponse(response),
        message: `a valid request was refused for its id ${facts.id.value}, which no earlier request used (the same plant with id ${idOf(retry.request.body)} was accepted)`,
      });
    }
    return PASS;
  },
};

function idOf(body: string | undefined): string {
  return /"id"\s*:\s*(-?\d+)/.exec(body ?? '')?.[1] ?? '?';
}
