/** Without valid credentials (no token, an empty one, another scheme, an unknown token) nothing is served. */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const authEnforced: Check<'auth-enforced'> = {
  id: 'auth-enforced',
  title: 'Authentication is enforced',
  description: 'A request without valid credentials (bearer, basic or API key) never gets a 2xx.',
  judge({ request, response, facts }) {
    if (facts.kind !== 'invalid' || facts.target !== 'auth') return undefined;
    if (response.status === undefined) return undefined;
    if (!isSuccess(response.status)) return PASS;
    return fail({
      key: byRequest('a refusal (not 2xx)'),
      expected: 'a refusal (not 2xx)',
      expectation: { kind: 'not-status-class', classes: [2] },
      actual: describeResponse(response),
      message: `a request without valid credentials was served: ${request.label}`,
    });
  },
};
