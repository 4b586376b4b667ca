/**
 * Each step of a model-based sequence of creates is held to what a model of the store (the set
 * of ids it holds) predicts: a never-used id is accepted, a stored id is refused (with
 * --expect-unique-ids), an id seen only in refused invalid requests is still free.
 */
import { isClientError, isSuccess } from '../../src/core/openapi/operation.js';
import { describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const statefulModel: Check<'stateful-model'> = {
  id: 'stateful-model',
  title: 'Creates agree with the ids stored',
  description: 'Over sequences of creates (new ids, repeated ids, invalid bodies) every answer agrees with a model of the stored ids.',
  judge({ request, response, facts }) {
    if (facts.role !== 'model' || facts.expect === undefined) return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    const because = facts.because ?? request.label;
    if (facts.expect === 'either') return PASS;
    if (facts.expect === 'refuse') {
      if (isClientError(status)) return PASS;
      return fail({
        key: byRequest('a refusal (the model holds this id)'),
        expected: 'a refusal (the model holds this id)',
        expectation: { kind: 'status-class', classes: [4] },
        actual: describeResponse(response),
        message: `the target accepted a taken id: ${because}`,
      });
    }
    if (isSuccess(status)) return PASS;
    const retryAccepted = facts.retry?.response.status !== undefined && isSuccess(facts.retry.response.status);
    // The item itself was refused (positive-acceptance's business); the model learns nothing.
    if (!retryAccepted) return undefined;
    return fail({
      key: byRequest('accepted (the model holds no such id)'),
      expected: 'accepted (the model holds no such id)',
      expectation: { kind: 'status-class', classes: [2] },
      actual: describeResponse(response),
      message: `the target refused a free id: ${because}`,
    });
  },
};
