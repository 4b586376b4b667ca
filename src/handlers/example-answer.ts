/**
 * The mocked answer taken from the document's examples without prism's mocker, whose first load
 * (faker, json-schema-faker, fp-ts: over a second) made the first `Prefer` request slow. It follows
 * the mocker's own negotiation for a valid request step for step (prism-http 5.16.0,
 * mocker/negotiator/NegotiatorHelpers.js and InternalHelpers.js; mocker/index.js assembleResponse),
 * so its answer is the mocker's to the byte (test/mocking/example-answer-agreement.test.ts holds it
 * to that), and it answers only where nothing needs generating: wherever the mocker would generate
 * (a body or header without an example, dynamic=true), negotiate further (no content fits Accept),
 * refuse, run callbacks or answer HEAD, it says undefined and the mocker answers.
 */
import type { IHttpHeaderParam, IHttpOperation, IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { preferredMediaType } from '../core/prism/adapter.js';
import type { MockPreferences } from '../http/prefer.js';

/** What prism's mocker resolves to (IHttpResponse): the status, its headers, the body as a value. */
export interface MockedResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** The mocker's answer from the document's examples, or undefined where only the mocker can give it. */
export function exampleAnswer(operation: IHttpOperation, accept: string | undefined, preferences: MockPreferences): MockedResponse | undefined {
  if (preferences.dynamic === true || operation.method === 'head' || (operation.callbacks?.length ?? 0) > 0) return undefined;
  const response = preferences.code === undefined ? unspecifiedCodeResponse(operation.responses) : responseByCode(operation.responses, preferences.code);
  if (response === undefined) return undefined;
  // mocker/index.js: the Accept header's values, split on commas as they are.
  const content = accept ? contentByAccept(response, accept.split(',')) : defaultContent(response);
  if (content === undefined) return undefined;
  const body = bodyOf(content.content, preferences.example);
  if (body === undefined) return undefined;
  const headers = mockedHeaders(response.headers ?? []);
  if (headers === undefined) return undefined;
  return {
    statusCode: Number.parseInt(response.code, 10),
    headers: {
      ...headers,
      ...(content.mediaType ? { 'Content-type': content.mediaType } : {}),
      ...(operation.deprecated ? { deprecation: 'true' } : {}),
    },
    body: body.value,
  };
}

/** Whether a request with no Prefer and no Accept is answered from the examples (else the mocker is worth preloading). */
export function answersFromExamples(operation: IHttpOperation): boolean {
  return exampleAnswer(operation, undefined, {}) !== undefined;
}

/** negotiateOptionsBySpecificCode: the code's response, its range's (1XX…5XX), or `default`; else the mocker's refusal. */
function responseByCode(responses: readonly IHttpOperationResponse[], code: number): IHttpOperationResponse | undefined {
  const text = String(code);
  const exact = responses.find((response) => response.code.toLowerCase() === text);
  if (exact) return exact;
  const range = responses.find((response) => response.code === `${text.charAt(0)}XX`) ?? responses.find((response) => response.code === 'default');
  return range && { ...range, code: text };
}

/** negotiateOptionsForUnspecifiedCode: the lowest 2xx (by its text), else `default` as 200, else the first. */
function unspecifiedCodeResponse(responses: readonly IHttpOperationResponse[]): IHttpOperationResponse | undefined {
  const success = responses.filter((response) => /^2(\d\d|XX)$/.test(response.code));
  // A stable sort by code text, as fp-ts's A.sort with S.Ord.
  const lowest = [...success].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))[0];
  if (lowest) return rangeNormalized(lowest);
  const fallback = responses.find((response) => response.code === 'default');
  if (fallback) return { ...fallback, code: '200' };
  const first = responses[0];
  return first && rangeNormalized(first);
}

function rangeNormalized(response: IHttpOperationResponse): IHttpOperationResponse {
  return /^\dXX$/.test(response.code) ? { ...response, code: `${response.code.charAt(0)}00` } : response;
}

interface Negotiated {
  /** Absent for a response without content and an Accept header. */
  readonly mediaType?: string;
  readonly content: IMediaTypeContent | undefined;
}

/** negotiateDefaultMediaType (no Accept header): a `*∕*` content, else the best for application/json, *∕*; none: text/plain, no body. */
function defaultContent(response: IHttpOperationResponse): Negotiated | undefined {
  const contents = response.contents ?? [];
  if (contents.length === 0) return { mediaType: 'text/plain', content: undefined };
  const content = contents.find((candidate) => candidate.mediaType === '*/*') ?? bestContent(contents, ['application/json', '*/*']);
  return content && { mediaType: content.mediaType, content };
}

/** negotiateOptionsBySpecificResponse with Accept: the best content for it; without contents, no media type and no body. */
function contentByAccept(response: IHttpOperationResponse, acceptValues: readonly string[]): Negotiated | undefined {
  const contents = response.contents ?? [];
  if (contents.length === 0) return { content: undefined };
  // No fit: the mocker retries without media type parameters, or answers empty, or 406; it decides.
  const content = bestContent(contents, acceptValues);
  return content && { mediaType: content.mediaType === '*/*' ? 'text/plain' : content.mediaType, content };
}

function bestContent(contents: readonly IMediaTypeContent[], acceptValues: readonly string[]): IMediaTypeContent | undefined {
  const best = preferredMediaType(
    acceptValues,
    contents.map((content) => content.mediaType),
  );
  return best === undefined ? undefined : contents.find((content) => content.mediaType === best);
}

/**
 * negotiateByPartialOptionsAndHttpContent and computeBody: the named example, else the first; a
 * content without examples or schema has no body. Undefined where the mocker would generate the
 * body from the schema or refuse an unknown example.
 */
function bodyOf(content: IMediaTypeContent | undefined, exampleKey: string | undefined): { readonly value: unknown } | undefined {
  if (content === undefined) return { value: undefined };
  const examples = content.examples ?? [];
  const example = exampleKey === undefined ? examples[0] : examples.find((candidate) => candidate.key === exampleKey);
  if (example === undefined) return exampleKey === undefined && content.schema === undefined ? { value: undefined } : undefined;
  const value = 'value' in example ? example.value : undefined;
  if (value !== undefined) return { value };
  // An external or empty example: the mocker generates from the schema when there is one.
  return content.schema === undefined ? { value: undefined } : undefined;
}

/** computeMockedHeaders: each declared header's first example (null without a schema); undefined where one would be generated. */
function mockedHeaders(headers: readonly IHttpHeaderParam[]): Record<string, unknown> | undefined {
  const byName: Record<string, IHttpHeaderParam> = {};
  for (const header of headers) byName[header.name] = header;
  const mocked: Record<string, unknown> = {};
  // fp-ts's Record.sequence, which the mocker builds them with, visits the names sorted.
  for (const name of Object.keys(byName).sort()) {
    const header = byName[name] as IHttpHeaderParam;
    if (!header.schema) {
      mocked[name] = null;
      continue;
    }
    const [first] = header.examples ?? [];
    if (first === undefined) return undefined;
    mocked[name] = 'value' in first ? first.value : null;
  }
  return mocked;
}
