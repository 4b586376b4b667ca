import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { toJsonText } from '../json-value.js';
import { baseOf } from './base.js';
import type { CaseContext, RequestCase } from './types.js';

/** Requests a conforming server must accept: a body from the schema, valid credentials and content type. */
export function validCases(operation: Operation, context: CaseContext = {}): fc.Arbitrary<RequestCase> {
  const base = baseOf(operation, context);
  if (base.body === undefined) {
    return base.path.map((path): RequestCase => ({ kind: 'valid', target: 'body', method: base.method, path, headers: base.headers }));
  }
  return fc.tuple(base.path, base.body.payload).map(([path, payload]): RequestCase => ({
    kind: 'valid',
    target: 'body',
    method: base.method,
    path,
    headers: base.headers,
    body: toJsonText(payload),
    payload,
  }));
}
