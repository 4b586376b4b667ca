/**
 * Whether an answer matches what its operation declares for its status, judged by prism's output
 * validator with the true int64 bounds, as the suite's response-schema-conformance check judges.
 */
import { DiagnosticSeverity } from '@stoplight/types';
import { expect } from 'vitest';
import { readRequestJson } from '../../src/core/json/exact-json.js';
import type { LoadedDocument } from '../../src/core/openapi/load-document.js';
import { validateOutput } from '../../src/core/prism/adapter.js';
import { validationView, widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import type { Reply } from '../support/server.js';

/** Asserts the reply is valid for `method path` of the document: a declared status, and a body its schema accepts. */
export function expectConforms(document: LoadedDocument, method: string, path: string, reply: Reply): void {
  const operation = document.operations.find((candidate) => candidate.method === method && candidate.path === path);
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  const parsed = reply.text === '' ? undefined : readRequestJson(reply.text);
  if (parsed && !parsed.ok) throw new Error(`not JSON: ${reply.text}`);
  const body = parsed === undefined ? undefined : parsed.exact ? validationView(parsed.value) : parsed.value;
  const result = validateOutput({
    resource: widenInt64Bounds(operation),
    element: { statusCode: reply.status, headers: reply.headers['content-type'] ? { 'content-type': reply.headers['content-type'] } : {}, body },
  });
  const issues = result._tag === 'Right' ? [] : result.left.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error).map((d) => d.message);
  expect(issues, `${method.toUpperCase()} ${path} → ${reply.status} ${reply.text}`).toEqual([]);
}
