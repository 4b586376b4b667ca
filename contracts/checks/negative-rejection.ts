/**
 * An invalid request must be refused with a client-error status. Which 4xx is
 * status-conformance's business (a 422 fails there, a 401 for a missing token warns there);
 * 5xx and transport errors are no-server-errors'.
 */
import { isClientError, isSuccess } from '../../src/core/openapi/operation.js';
import { declaredCodesIn, describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const negativeRejection: Check<'negative-rejection'> = {
  id: 'negative-rejection',
  title: 'Invalid requests are rejected',
  description: 'An invalid request gets a declared failure status (4xx), never a 2xx.',
  judge({ request, response, facts }, { operation }) {
    if (facts.kind !== 'invalid') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isClientError(status)) return PASS;
    const expected = `${declaredCodesIn(operation, 4)} (refused)`;
    return fail({
      key: byRequest(expected),
      expected,
      expectation: { kind: 'status-class', classes: [4] },
      actual: describeResponse(response),
      message: isSuccess(status)
        ? `an invalid request was accepted: ${request.label}`
        : `an invalid request (${request.label}) got ${status}, which is not a refusal`,
    });
  },
};
