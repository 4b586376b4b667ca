/**
 * An answer's Content-Type is a media type the document declares for its status (parameters such
 * as charset are fine), as the one judge says (src/core/conformance/judge.ts).
 */
import { mediaTypeOf } from '../../src/core/http/media-type.js';
import { answerJudgement, violationOf } from './answer-judgement.js';
import { describeResponse } from './declared.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

export const contentTypeConformance: Check<'content-type-conformance'> = {
  id: 'content-type-conformance',
  title: 'Content types are declared',
  description: 'Every answer has the content type declared for its status (e.g. application/json; charset is allowed).',
  judge({ request, response }, { operation }) {
    const judgement = answerJudgement(response, operation);
    // Nothing declared for this status (or the status is undeclared, status-conformance's): nothing to hold it to.
    if (judgement?.response?.contents === undefined || judgement.response.contents.length === 0) return undefined;
    const violation = violationOf(judgement, 'media-type');
    if (violation === undefined) return PASS;
    const header = violation.contentType;
    return fail({
      key: byAnswer(`${violation.status} ${mediaTypeOf(header) ?? 'none'}`),
      expected: `content-type ${violation.declared.join(' or ')}`,
      expectation: { kind: 'media-type', mediaTypes: violation.declared },
      actual: header === undefined ? `no content-type; ${describeResponse(response)}` : `content-type ${header}`,
      message: `a ${violation.status} answer came with ${header === undefined ? 'no content type' : `content type ${header}`} (${request.label})`,
    });
  },
};
