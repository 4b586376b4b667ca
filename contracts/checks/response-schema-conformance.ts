/**
 * An answer's body matches the schema declared for its status, as the one judge says
 * (src/core/conformance/judge.ts: prism's Ajv and wording, allOf merged, writeOnly stripped, int64
 * exact), compiled once per declared content. Only the body is reported here: an undeclared status
 * is status-conformance's and a wrong media type content-type-conformance's, so neither is reported twice.
 */
import { prepareJudge } from '../../src/core/conformance/judge.js';
import { answerJudgement, violationOf } from './answer-judgement.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

const ISSUES_SHOWN = 3;

export const responseSchemaConformance: Check<'response-schema-conformance'> = {
  id: 'response-schema-conformance',
  title: 'Bodies match their schemas',
  description: 'Every JSON answer body matches the schema its operation declares for its status and media type, success and failure alike.',
  judge({ request, response }, { operation, sameRoute }) {
    const judgement = answerJudgement(response, operation);
    const content = judgement?.bodyContent;
    if (judgement === undefined || content === undefined) return undefined;
    // A request valid for several operations on one route may be answered as any of them.
    if (sameRoute?.some((other) => answersAs(response, other))) return PASS;
    const schemaName = schemaTitle(content.schema);
    const notJson = violationOf(judgement, 'not-json');
    if (notJson !== undefined) {
      return fail({
        key: byAnswer(`${notJson.status} not JSON`),
        expected: `a JSON ${schemaName}`,
        // The schema as it was judged (merged, stripped, true int64 bounds): a regression file's validator is made from it.
        expectation: { kind: 'json-schema', schema: notJson.check?.schema ?? content.schema },
        actual: response.body === '' ? 'an empty body' : `not JSON: ${response.body.slice(0, 200)}`,
        message: `the ${notJson.status} answer's body is not JSON (${request.label}): ${notJson.reason}`,
      });
    }
    const broken = violationOf(judgement, 'schema');
    if (broken === undefined) return PASS;
    const listed = broken.issues.slice(0, ISSUES_SHOWN);
    if (broken.issues.length > ISSUES_SHOWN) listed.push(`and ${broken.issues.length - ISSUES_SHOWN} more`);
    return fail({
      key: byAnswer(`${broken.status} ${broken.issues.join('; ')}`),
      expected: `a body matching ${schemaName}`,
      expectation: { kind: 'json-schema', schema: broken.check.schema },
      actual: response.body.length > 300 ? `${response.body.slice(0, 300)}…` : response.body,
      message: `the ${broken.status} answer's body does not match ${schemaName}: ${listed.join('; ')} (${request.label})`,
    });
  },
  prepare: prepareJudge,
};

/** Whether the answer is one `operation` declares: its status, and a JSON body its schema takes. */
function answersAs(response: Parameters<typeof answerJudgement>[0], operation: Parameters<typeof answerJudgement>[1]): boolean {
  const judgement = answerJudgement(response, operation);
  return judgement?.bodyContent !== undefined && (['status', 'not-json', 'schema'] as const).every((kind) => violationOf(judgement, kind) === undefined);
}

/** The schema's name for people: its title, or the name of the component it came from, or "the declared schema". */
function schemaTitle(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'the declared schema';
  const record = schema as Record<string, unknown>;
  if (typeof record.title === 'string') return record.title;
  // prism keeps the component's name in x-stoplight only as an id, so name it by its required properties.
  const required = Array.isArray(record.required) ? record.required.filter((r): r is string => typeof r === 'string') : [];
  return required.length > 0 ? `the declared schema (requires ${required.join(', ')})` : 'the declared schema';
}
