/**
 * Without valid credentials (no token, an empty one, another scheme, an unknown token) nothing is
 * served; nor is a session given for a credential the target never issued (a refresh token this run
 * drew), where the run knows the target checks credentials.
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { describeResponse } from './declared.js';
import type { ReceivedResponse } from '../report.js';
import { byRequest, fail, PASS, type Check, type Verdict } from './types.js';

export const authEnforced: Check<'auth-enforced'> = {
  id: 'auth-enforced',
  title: 'Authentication is enforced',
  description:
    'A request without valid credentials (bearer, basic or API key) never gets a 2xx, nor a session traded for a refresh token the target never issued (where it checks credentials).',
  judge({ request, response, facts }, { tokensValidated }) {
    if (facts.kind === 'valid' && facts.unissuedCredential !== undefined) {
      // A target never shown to check credentials (no --tokens-validated, no sign-in) is not blamed for honouring it.
      if (tokensValidated !== true) return undefined;
      return refusedOrFail(
        response,
        'a refusal (not 2xx) of a credential never issued',
        'a refusal (not 2xx): the target never issued it',
        `${facts.unissuedCredential}, was traded for a session (2xx): ${request.label}`,
      );
    }
    if (facts.kind !== 'invalid' || facts.target !== 'auth') return undefined;
    return refusedOrFail(response, 'a refusal (not 2xx)', 'a refusal (not 2xx)', `a request without valid credentials was served: ${request.label}`);
  },
};

/** Both of the check's cases: a refusal passes, a 2xx fails with `message`; no answer is not judged. */
function refusedOrFail(response: ReceivedResponse, key: string, expected: string, message: string): Verdict | undefined {
  if (response.status === undefined) return undefined;
  if (!isSuccess(response.status)) return PASS;
  return fail({ key: byRequest(key), expected, expectation: { kind: 'not-status-class', classes: [2] }, actual: describeResponse(response), message });
}
