/**
 * The headers an answer's declared response lists are there when required and fit their schemas, as
 * the one judge says (src/core/conformance/judge.ts: prism's parameter check, its deserializers and
 * wording; Content-Type aside, which content-type-conformance judges). Schemathesis' check of this name.
 */
import { answerJudgement, violationOf } from './answer-judgement.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

export const responseHeadersConformance: Check<'response-headers-conformance'> = {
  id: 'response-headers-conformance',
  title: 'Headers match their declarations',
  description: 'Every header the document declares for an answer is there when required and fits its schema.',
  judge({ request, response }, { operation }) {
    const judgement = answerJudgement(response, operation);
    if (judgement === undefined || !judgement.headersDeclared) return undefined;
    const violation = violationOf(judgement, 'header');
    if (violation === undefined) return PASS;
    const declared = (judgement.response?.headers ?? []).filter((header) => header.name.toLowerCase() !== 'content-type');
    return fail({
      key: byAnswer(`${violation.status} ${violation.issues.join('; ')}`),
      expected: `the declared headers ${declared.map((header) => `${header.name}${header.required === true ? ' (required)' : ''}`).join(', ')}`,
      expectation: { kind: 'headers', schema: violation.schema ?? {} },
      actual: declared.map((header) => `${header.name}: ${response.headers[header.name.toLowerCase()] ?? '(absent)'}`).join(', '),
      message: `the ${violation.status} answer's headers do not match the document: ${violation.issues.join('; ')} (${request.label})`,
    });
  },
};
