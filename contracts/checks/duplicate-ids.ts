/**
 * Ids are identities. Re-sending an id the target just accepted must not crash it, and with
 * --expect-unique-ids must be refused. Two int64 neighbours above 2^53 (which one double cannot
 * tell apart) must both be accepted: a refusal of the second, when the same item is accepted
 * under a never-used id, means the target rounded the id.
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const duplicateIds: Check<'duplicate-ids'> = {
  id: 'duplicate-ids',
  title: 'Ids are kept exact and unique',
  description: 'Re-sending a stored id never gets a 5xx (and is refused with --expect-unique-ids); int64 neighbours above 2^53 are told apart.',
  judge({ request, response, facts }, { expectUniqueIds }) {
    if (facts.role === 'repeat') {
      if (response.error) return undefined; // no-server-errors reports it
      const status = response.status ?? 0;
      if (status >= 500) {
        return fail({
          key: byRequest('not a 5xx'),
          expected: 'not a 5xx',
          expectation: { kind: 'not-status-class', classes: [5] },
          actual: describeResponse(response),
          message: `re-sending a stored id got a server error (${facts.because ?? request.label})`,
        });
      }
      if (!expectUniqueIds || !isSuccess(status)) return PASS;
      return fail({
        key: byRequest('a refusal (the id is taken)'),
        expected: 'a refusal (the id is taken)',
        expectation: { kind: 'status-class', classes: [4] },
        actual: describeResponse(response),
        message: `an id already stored was accepted again: ${facts.because ?? request.label}`,
      });
    }
    if (facts.role === 'neighbour') {
      const status = response.status;
      if (status === undefined || status >= 500) return undefined;
      if (isSuccess(status)) return PASS;
      const retry = facts.retry;
      const retryAccepted = retry?.response.status !== undefined && isSuccess(retry.response.status);
      // Refused for the item itself, not its id: positive-acceptance's business.
      if (!retryAccepted) return undefined;
      // An id sent as is (the literal 2^53+1) may be left over from an earlier run: no verdict.
      if (facts.id?.freshness !== 'fresh') return undefined;
      return fail({
        key: byRequest('accepted (a different int64 id)'),
        expected: 'accepted (a different int64 id)',
        expectation: { kind: 'status-class', classes: [2] },
        actual: describeResponse(response),
        message: `id ${facts.id.value} was refused as if taken, ${facts.because ?? ''}: the target does not keep int64 ids exact`,
      });
    }
    return undefined;
  },
};
