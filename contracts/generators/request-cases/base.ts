/**
 * What every case starts from (method, path, headers and a body arbitrary for a valid request) and
 * the ways an invalid family is made from it.
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isJsonObject, toJsonText, type JsonObject, type JsonValue } from '../json-value.js';
import { arbitraryFromSchema, type JsonSchema } from '../schema-arbitrary.js';
import { jsonRequestBody } from '../../../src/core/openapi/operation.js';
import { mediaTypeOf } from '../../../src/core/http/media-type.js';
import { typeOf } from '../../../src/core/schema/types.js';
import { isJsonPatchDocument } from '../../../src/core/schema/json-patch.js';
import { parameterHeaders, validQuery, withQuery } from './parameters.js';
import { headersWith, NOTHING, pathWith, validCredentials, type Carried } from './credentials.js';
import { formEncode, MULTIPART_BOUNDARY, multipartEncode } from './body-encoding.js';
import type { CaseContext, CaseFamily, RequestCase } from './types.js';

/** Everything a valid request needs; invalid cases start from it and change one thing. */
export interface Base {
  readonly method: string;
  /** The path with its parameters filled, a valid query string, and credentials in the query when the operation takes them there. */
  readonly path: fc.Arbitrary<string>;
  /** Headers, with the credentials of one security alternative and the required header and cookie parameters. */
  readonly headers: Readonly<Record<string, string>>;
  /** The path and headers without any credentials, for the auth families to add theirs to. */
  readonly anonymous: { readonly path: fc.Arbitrary<string>; readonly headers: Readonly<Record<string, string>> };
  /** The path template filled from the parameters' schemas, `given` (already encoded) in place of theirs; no query. */
  readonly filled: (given: Readonly<Record<string, string>>) => fc.Arbitrary<string>;
  /** A valid query string ("" when none), without the "?". */
  readonly query: fc.Arbitrary<string>;
  /** The path with the credentials' query parameters appended. */
  readonly credentialed: (path: string) => string;
  readonly body: RequestBody | undefined;
}

/** The request body the cases send: the first declared media type the suite can write (JSON, then form, then multipart). */
export interface RequestBody {
  readonly mediaType: string;
  readonly schema: JsonSchema;
  readonly payload: fc.Arbitrary<JsonValue>;
  /** false: a request without a body is valid too (requestBody.required is not true). */
  readonly required: boolean;
  /** The bytes a payload is sent as, in this media type. */
  readonly encode: (payload: JsonValue) => string;
  /** true for JSON: the payload is the body's own value (ids can be changed in place, syntax families apply). */
  readonly json: boolean;
}

export function baseOf(operation: Operation, context: CaseContext): Base {
  const body = requestBodyOf(operation, context);
  const headers: Record<string, string> = { ...parameterHeaders(operation) };
  if (body !== undefined) headers['content-type'] = body.mediaType;
  const credentials: Carried = validCredentials(operation, context);
  const filled = (given: Readonly<Record<string, string>>): fc.Arbitrary<string> => pathArbitrary(operation, given);
  const query = validQuery(operation);
  const path = fc.tuple(filled({}), query).map(([p, q]) => withQuery(p, q));
  return {
    method: operation.method.toUpperCase(),
    path: credentials.query.length === 0 ? path : path.map((p) => pathWith(p, credentials)),
    headers: headersWith(headers, credentials),
    anonymous: { path, headers: headersWith(headers, NOTHING) },
    filled,
    query,
    credentialed: (p) => pathWith(p, credentials),
    body,
  };
}

function requestBodyOf(operation: Operation, context: CaseContext): RequestBody | undefined {
  const json = jsonRequestBody(operation);
  const payloadOf = (schema: JsonSchema): fc.Arbitrary<JsonValue> => arbitraryFromSchema(schema, { extraProperties: context.extraProperties ?? true });
  const required = operation.request?.body?.required === true;
  if (json !== undefined) {
    // A JSON Patch's drawn operations name nothing the target holds: the empty patch is the valid one.
    const payload = isJsonPatchDocument(json.schema, json.mediaType) ? fc.constant<JsonValue>([]) : payloadOf(json.schema);
    return { mediaType: json.mediaType, schema: json.schema, payload, required, encode: toJsonText, json: true };
  }
  const contents = operation.request?.body?.contents ?? [];
  const form = contents.find((c) => mediaTypeOf(c.mediaType) === 'application/x-www-form-urlencoded');
  if (form !== undefined) {
    const schema = (form.schema ?? {}) as JsonSchema;
    // Undeclared properties in a form are text of no declared type: left out, so every value is written as its schema says.
    const payload = arbitraryFromSchema(schema, { extraProperties: false }).filter(isJsonObject);
    return { mediaType: form.mediaType, schema, payload, required, encode: formEncode, json: false };
  }
  const multipart = contents.find((c) => mediaTypeOf(c.mediaType) === 'multipart/form-data');
  if (multipart !== undefined) {
    const schema = (multipart.schema ?? {}) as JsonSchema;
    const payload = arbitraryFromSchema(schema, { extraProperties: false }).filter(isJsonObject);
    return { mediaType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, schema, payload, required, encode: multipartEncode, json: false };
  }
  // A text body of a string schema (Ditto's connection command, text/plain) is sent as the string: without it, a
  // required body went missing from every valid case.
  const text = contents.find((c) => (mediaTypeOf(c.mediaType) ?? '').startsWith('text/') && typeOf(c.schema) === 'string');
  if (text !== undefined) {
    const schema = (text.schema ?? {}) as JsonSchema;
    // An empty text is no body at all on the wire: a required one is never empty.
    const payload = arbitraryFromSchema(schema, {}).filter((value) => typeof value === 'string' && (!required || value.length > 0));
    return { mediaType: text.mediaType, schema, payload, required, encode: String, json: false };
  }
  return undefined;
}

/** The operation path with templated parameters filled from their schemas (percent-encoded, never empty or a dot segment). */
function pathArbitrary(operation: Operation, given: Readonly<Record<string, string>>): fc.Arbitrary<string> {
  const parts = operation.path.split(/(\{[^}]+\})/);
  if (parts.length === 1) return fc.constant(operation.path);
  const pieces = parts.map((part) => {
    const match = /^\{([^}]+)\}$/.exec(part);
    if (match === null) return fc.constant(part);
    const name = match[1] as string;
    const fixed = given[name];
    if (fixed !== undefined) return fc.constant(fixed);
    const schema = operation.request?.path?.find((p) => p.name === name)?.schema;
    const raw: fc.Arbitrary<JsonValue> =
      schema !== undefined ? arbitraryFromSchema(schema, { extraProperties: false }) : fc.string({ minLength: 1, maxLength: 12 });
    return (
      raw
        .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean')
        .map((v) => encodeURIComponent(String(v)))
        // Within common URL limits (8 KiB): a 10,000-character segment tests the server's limit, not the document.
        .filter((segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.length <= 1_000)
    );
  });
  return fc.tuple(...pieces).map((segments) => segments.join(''));
}

/** The body part of a Base whose operation takes a JSON body. */
export type Body = NonNullable<Base['body']>;

/** A family of invalid cases: its label, what it breaks, and its arbitrary. */
export function family(breaks: string, target: RequestCase['target'], arbitrary: fc.Arbitrary<RequestCase>): CaseFamily {
  return { breaks, target, arbitrary };
}

/** A body family: `mutate` turns a valid payload into the invalid JSON value to send. */
export function payloadFamily<T>(
  base: Base,
  body: Body,
  breaks: string,
  values: fc.Arbitrary<T>,
  mutate: (payload: JsonValue, value: T) => JsonValue | undefined,
): CaseFamily {
  const arbitrary = fc
    .tuple(base.path, body.payload, values)
    .map(([path, payload, value]) => ({ path, sent: mutate(payload, value) }))
    .filter((x): x is { path: string; sent: JsonValue } => x.sent !== undefined)
    .map(({ path, sent }): RequestCase => ({
      kind: 'invalid',
      breaks,
      target: 'body',
      method: base.method,
      path,
      headers: base.headers,
      body: toJsonText(sent),
      payload: sent,
    }));
  return family(breaks, 'body', arbitrary);
}

/** A body family whose bytes are not (or not only) a JSON value. */
export function textFamily(base: Base, breaks: string, text: fc.Arbitrary<string>): CaseFamily {
  const arbitrary = fc
    .tuple(base.path, text)
    .map(([path, sent]): RequestCase => ({ kind: 'invalid', breaks, target: 'body', method: base.method, path, headers: base.headers, body: sent }));
  return family(breaks, 'body', arbitrary);
}

/** A payloadFamily mutation that applies only when the valid payload is an object (skipped otherwise). */
export function onObject(mutate: (object: JsonObject) => JsonValue): (payload: JsonValue) => JsonValue | undefined {
  return (payload) => (isJsonObject(payload) ? mutate(payload) : undefined);
}
