/**
 * What every case starts from (method, path, headers and a body arbitrary for a valid request) and
 * the ways an invalid family is made from it.
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isJsonObject, toJsonText, type JsonObject, type JsonValue } from '../json-value.js';
import { arbitraryFromSchema, type JsonSchema } from '../schema-arbitrary.js';
import { jsonRequestBody } from '../../../src/core/openapi/operation.js';
import { headersWith, NOTHING, pathWith, validCredentials, type Carried } from './credentials.js';
import type { CaseContext, CaseFamily, RequestCase } from './types.js';

/** Everything a valid request needs; invalid cases start from it and change one thing. */
export interface Base {
  readonly method: string;
  /** The path, with credentials in the query when the operation takes them there. */
  readonly path: fc.Arbitrary<string>;
  /** Headers, with the credentials of one security alternative. */
  readonly headers: Readonly<Record<string, string>>;
  /** The path and headers without any credentials, for the auth families to add theirs to. */
  readonly anonymous: { readonly path: fc.Arbitrary<string>; readonly headers: Readonly<Record<string, string>> };
  readonly body: { readonly mediaType: string; readonly schema: JsonSchema; readonly payload: fc.Arbitrary<JsonValue> } | undefined;
}

export function baseOf(operation: Operation, context: CaseContext): Base {
  const body = jsonRequestBody(operation);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = body.mediaType;
  const path = pathArbitrary(operation);
  const credentials: Carried = validCredentials(operation, context);
  return {
    method: operation.method.toUpperCase(),
    path: credentials.query.length === 0 ? path : path.map((p) => pathWith(p, credentials)),
    headers: headersWith(headers, credentials),
    anonymous: { path, headers: headersWith(headers, NOTHING) },
    body:
      body === undefined
        ? undefined
        : { mediaType: body.mediaType, schema: body.schema, payload: arbitraryFromSchema(body.schema, { extraProperties: context.extraProperties ?? true }) },
  };
}

/** The operation path with templated parameters filled from their schemas (percent-encoded, never empty or a dot segment). */
function pathArbitrary(operation: Operation): fc.Arbitrary<string> {
  const parts = operation.path.split(/(\{[^}]+\})/);
  if (parts.length === 1) return fc.constant(operation.path);
  const pieces = parts.map((part) => {
    const match = /^\{([^}]+)\}$/.exec(part);
    if (match === null) return fc.constant(part);
    const name = match[1] as string;
    const schema = operation.request?.path?.find((p) => p.name === name)?.schema;
    const raw: fc.Arbitrary<JsonValue> =
      schema !== undefined ? arbitraryFromSchema(schema, { extraProperties: false }) : fc.string({ minLength: 1, maxLength: 12 });
    return raw
      .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean')
      .map((v) => encodeURIComponent(String(v)))
      .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
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
