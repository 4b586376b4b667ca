import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isJsonObject, jsonEntries, jsonObject, toJsonText, type JsonValue } from '../json-value.js';
import { baseOf } from './base.js';
import type { CaseContext, RequestCase } from './types.js';

/**
 * Requests a conforming server must accept: parameters and a body from their schemas, valid
 * credentials and content type. They also vary what the document leaves free: a media-type
 * parameter (`application/json; charset=utf-8`), the header name's case, the order of an object's
 * properties, and no body at all where the body is optional.
 */
export function validCases(operation: Operation, context: CaseContext = {}): fc.Arbitrary<RequestCase> {
  const base = baseOf(operation, context);
  const body = base.body;
  if (body === undefined) {
    return base.path.map((path): RequestCase => ({ kind: 'valid', target: 'body', method: base.method, path, headers: base.headers }));
  }
  const variation = fc.record({ charset: fc.boolean(), headerCase: fc.boolean(), reorder: fc.nat(), omit: fc.boolean() });
  return fc.tuple(base.path, body.payload, fc.option(variation, { freq: 4 })).map(([path, generated, vary]): RequestCase => {
    if (vary !== null && vary.omit && !body.required) {
      const { ['content-type']: _type, ...headers } = base.headers;
      return { kind: 'valid', target: 'body', method: base.method, path, headers };
    }
    const payload = vary === null || !body.json ? generated : reordered(generated, vary.reorder);
    let headers: Record<string, string> = { ...base.headers };
    if (vary !== null && vary.charset && body.json && body.mediaType.toLowerCase() === 'application/json') {
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    if (vary !== null && vary.headerCase) {
      const { ['content-type']: type, ...rest } = headers;
      if (type !== undefined) headers = { ...rest, 'Content-Type': type };
    }
    const sent = body.json ? toJsonText(payload) : body.encode(payload);
    return { kind: 'valid', target: 'body', method: base.method, path, headers, body: sent, payload };
  });
}

/** The same object with its properties in another order (rotated by `by`): JSON objects are unordered. */
function reordered(payload: JsonValue, by: number): JsonValue {
  if (!isJsonObject(payload)) return payload;
  const entries = jsonEntries(payload);
  if (entries.length < 2) return payload;
  const shift = (by % (entries.length - 1)) + 1;
  return jsonObject([...entries.slice(shift), ...entries.slice(0, shift)]);
}
