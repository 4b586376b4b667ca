/**
 * An answer's body matches the schema declared for its status, judged as prism-http's output
 * validator judges it (compileResponseBodyCheck: its Ajv, its schema normalisation, its wording),
 * compiled once per declared content. Only the body is judged here: an undeclared status is status-conformance's
 * and a wrong media type content-type-conformance's, so neither is reported twice.
 */
import { DiagnosticSeverity, type IMediaTypeContent } from '@stoplight/types';
import { compileResponseBodyCheck, type SchemaCheck } from '../../src/core/prism/adapter.js';
import { validationView, widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import { declaredResponse, type Operation } from '../../src/core/openapi/operation.js';
import { isJsonMediaType, mediaTypeAccepts, mediaTypeOf } from '../../src/core/http/media-type.js';
import { answerJson } from './answer-json.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

const ISSUES_SHOWN = 3;

export const responseSchemaConformance: Check<'response-schema-conformance'> = {
  id: 'response-schema-conformance',
  title: 'Bodies match their schemas',
  description: 'Every JSON answer body matches the schema its operation declares for its status and media type, success and failure alike.',
  judge({ request, response }, { operation }) {
    if (response.status === undefined) return undefined;
    // The operation with true int64 bounds (bundle included), so an echoed id beyond 2^53 is valid.
    const widenedOperation = withTrueInt64Bounds(operation);
    const declared = declaredResponse(widenedOperation, response.status);
    const contents = (declared?.contents ?? []).filter((content) => content.schema !== undefined);
    if (declared === undefined || contents.length === 0) return undefined;
    const actualType = mediaTypeOf(response.headers['content-type']);
    // Judge against the declared content the answer claims to be, else the first one.
    const content = contents.find((c) => actualType !== undefined && mediaTypeAccepts(c.mediaType, actualType)) ?? contents[0];
    // A schema is held to JSON bodies only: an image/png's `format: binary` string is bytes, which content-type-conformance judges.
    if (content === undefined || !isJsonMediaType(mediaTypeOf(content.mediaType) ?? '')) return undefined;
    const schemaName = schemaTitle(content.schema);
    // Read exactly, as the server reads requests: an int64 beyond 2^53 keeps its side of every bound.
    const parsed = answerJson(response);
    if (!parsed.ok) {
      return fail({
        key: byAnswer(`${response.status} not JSON`),
        expected: `a JSON ${schemaName}`,
        expectation: { kind: 'json-schema', schema: content.schema },
        actual: response.body === '' ? 'an empty body' : `not JSON: ${response.body.slice(0, 200)}`,
        message: `the ${response.status} answer's body is not JSON (${request.label}): ${parsed.reason}`,
      });
    }
    const body = parsed.exact ? validationView(parsed.value) : parsed.value;
    const issues = (checkFor(content, widenedOperation)?.(body) ?? []).filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error);
    if (issues.length === 0) return PASS;
    const listed = issues.slice(0, ISSUES_SHOWN).map((issue) => issue.message);
    if (issues.length > ISSUES_SHOWN) listed.push(`and ${issues.length - ISSUES_SHOWN} more`);
    return fail({
      key: byAnswer(`${response.status} ${issues.map((issue) => issue.message).join('; ')}`),
      expected: `a body matching ${schemaName}`,
      expectation: { kind: 'json-schema', schema: content.schema },
      actual: response.body.length > 300 ? `${response.body.slice(0, 300)}…` : response.body,
      message: `the ${response.status} answer's body does not match ${schemaName}: ${listed.join('; ')} (${request.label})`,
    });
  },
  prepare(operation) {
    const widenedOperation = withTrueInt64Bounds(operation);
    for (const declared of widenedOperation.responses) for (const content of declared.contents ?? []) checkFor(content, widenedOperation);
  },
};

const checks = new WeakMap<IMediaTypeContent, SchemaCheck | undefined>();
function checkFor(content: IMediaTypeContent, operation: Operation): SchemaCheck | undefined {
  if (!checks.has(content)) {
    const bundle: unknown = (operation as { __bundled__?: unknown }).__bundled__;
    checks.set(content, content.schema === undefined ? undefined : compileResponseBodyCheck(content.schema, bundle));
  }
  return checks.get(content);
}

/**
 * prism bounds every int64 to ±(2^53 − 1); a response with a larger id (an echoed int64) is valid.
 * The same widening the server applies to requests, once per operation.
 */
const widened = new WeakMap<Operation, Operation>();
function withTrueInt64Bounds(operation: Operation): Operation {
  let copy = widened.get(operation);
  if (copy === undefined) {
    copy = widenInt64Bounds(operation);
    widened.set(operation, copy);
  }
  return copy;
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
