/** Whatever is sent, the target answers: never a 5xx, never silence, never a dropped connection. */
import { describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const noServerErrors: Check<'no-server-errors'> = {
  id: 'no-server-errors',
  title: 'No server errors',
  description: 'No request gets a 5xx, times out, or has its connection dropped.',
  judge({ request, response }) {
    if (response.error) {
      return fail({
        key: byRequest('an answer'),
        expected: 'an answer',
        expectation: { kind: 'not-status-class', classes: [5] },
        actual: describeResponse(response),
        message:
          response.error.kind === 'timeout'
            ? `the target did not answer in time (${request.label})`
            : response.error.kind === 'too-large'
              ? `${response.error.message} (${request.label})`
              : `the connection failed or was dropped without an answer (${request.label})`,
      });
    }
    if (response.status !== undefined && response.status >= 500) {
      return fail({
        key: byRequest('a status below 500'),
        expected: 'a status below 500',
        expectation: { kind: 'not-status-class', classes: [5] },
        actual: describeResponse(response),
        message: `the target failed with ${response.status} (${request.label})`,
      });
    }
    return PASS;
  },
};
