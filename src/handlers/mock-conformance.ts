/**
 * A mocked answer kept to the document it stands in for. prism's static mocker writes a boolean
 * header as "null" (Eclipse Ditto's live-channel-condition-matched on every read of a thing's parts)
 * and a string of a pattern as "string" (Ditto's ns:name:version definitions). Each declared header
 * is judged by the check verify judges answers with (compileParameterCheck); one it breaks, or a
 * required one left out, gets its schema's small value (core/schema/value.ts). A body is judged by
 * the body check verify's judge uses (compileBodyCheck), so mock-operation.ts can send it completed
 * with the required properties it lacks (mock-mend.ts) or a generated one instead. Compiled once per response; a response that declares no header costs nothing.
 */
import type { IHttpOperation, IHttpOperationResponse } from '@stoplight/types';
import { declaredResponse } from '../core/openapi/operation.js';
import { bundleOf, compileBodyCheck, compileParameterCheck, type BodyCheck, type ParameterCheck } from '../core/prism/adapter.js';
import { isJsonMediaType, mediaTypeOf } from '../core/http/media-type.js';
import { readAnswerJson } from '../core/json/exact-json.js';
import { valueMaker, type ValueMaker } from '../core/schema/value.js';
import { headerText } from './resource/answer-headers.js';
import { requiredFills, type RequiredFill } from './mock-mend.js';

interface DeclaredHeader {
  readonly name: string;
  readonly required: boolean;
  readonly check: ParameterCheck;
  readonly make: ValueMaker;
}

const compiled = new WeakMap<IHttpOperationResponse, readonly DeclaredHeader[]>();

function declaredHeaders(operation: IHttpOperation, response: IHttpOperationResponse): readonly DeclaredHeader[] {
  let headers = compiled.get(response);
  if (headers === undefined) {
    headers = (response.headers ?? [])
      .filter((header) => header.name.toLowerCase() !== 'content-type')
      .map((header) => ({
        name: header.name.toLowerCase(),
        required: header.required === true,
        check: compileParameterCheck([header], 'header', bundleOf(operation), 'response'),
        make: valueMaker(header.schema ?? { type: 'string' }, { direction: 'response', fresh: true }),
      }));
    compiled.set(response, headers);
  }
  return headers;
}

/** `headers` (lower-case names) with each declared header of the `status` answer made valid. */
export function withValidHeaders(operation: IHttpOperation, status: number, headers: Record<string, string>): Record<string, string> {
  const response = declaredResponse(operation, status);
  if (response === undefined) return headers;
  for (const { name, required, check, make } of declaredHeaders(operation, response)) {
    // prism types its headers as strings but hands on whatever it made: null for a boolean, numbers as they are.
    const made: unknown = headers[name];
    if (made === undefined) {
      if (required) headers[name] = headerText(make());
      continue;
    }
    const value = made === null ? undefined : String(made);
    headers[name] = value === undefined || check({ [name]: value }) !== undefined ? headerText(make()) : value;
  }
  return headers;
}

const bodyChecks = new WeakMap<IHttpOperationResponse, Map<string, BodyCheck | undefined>>();

/** Whether a JSON answer's body breaks the schema its status and media type declare (not JSON at all counts). */
export function breaksBodySchema(operation: IHttpOperation, status: number, contentType: string | undefined, body: string): boolean {
  const check = bodyCheckFor(operation, status, contentType);
  if (check === null) return false;
  const read = readAnswerJson(body);
  return !read.ok || (check !== undefined && check(read.value, read.exact) !== undefined);
}

/** The required properties a JSON answer's body lacks, as fills that make it keep to its schema (mock-mend.ts); undefined where they are not enough. */
export function requiredFillsFor(
  operation: IHttpOperation,
  status: number,
  contentType: string | undefined,
  body: string,
): readonly RequiredFill[] | undefined {
  const check = bodyCheckFor(operation, status, contentType);
  const read = readAnswerJson(body);
  return check && read.ok ? requiredFills(check, read.value) : undefined;
}

/** The body check of a JSON answer's status and media type: null where nothing is declared to judge by, undefined where prism leaves nothing to check. */
function bodyCheckFor(operation: IHttpOperation, status: number, contentType: string | undefined): BodyCheck | null | undefined {
  const response = declaredResponse(operation, status);
  const type = mediaTypeOf(contentType);
  if (response === undefined || type === undefined || !isJsonMediaType(type)) return null;
  const content = response.contents?.find((candidate) => mediaTypeOf(candidate.mediaType) === type);
  if (content?.schema === undefined) return null;
  const checks = bodyChecks.get(response) ?? new Map<string, BodyCheck | undefined>();
  bodyChecks.set(response, checks);
  if (!checks.has(type)) checks.set(type, compileBodyCheck(content.schema, operation, 'response'));
  return checks.get(type);
}
