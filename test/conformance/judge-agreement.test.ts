/**
 * One judge of "this answer conforms", in the spirit of security-agreement.test.ts: `verify`'s
 * answer checks, `serve --proxy`'s response check and a regression file emitted for a finding and
 * replayed must judge the same answer the same way. Before they shared src/core/conformance/judge.ts,
 * the proxy refused an answer lacking a required writeOnly property that verify passed, and a
 * replayed regression file passed answers breaking a pattern, a format or a $ref'd schema, and
 * verify did not judge declared headers at all.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, type CheckContext } from '../../contracts/checks/index.js';
import type { Expectation, Finding } from '../../contracts/report.js';
import { regressionSource } from '../../contracts/reporters/regressions.js';
import { assertExpectation } from '../../contracts/reporters/regression-runtime.js';
import { failedReport } from '../../contracts/reporters/report.test-support.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import type { Operation } from '../../src/core/openapi/operation.js';
import { compileResponseCheck } from '../../src/proxy/response-check.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** A document whose one operation answers 200 with `schema` (components as given). */
function documentWith(schema: object, components: Record<string, object> = {}): object {
  return {
    openapi: '3.0.3',
    info: { title: 'Things', version: '1' },
    paths: { '/thing': { get: { operationId: 'getThing', responses: { '200': { description: 'the thing', content: { 'application/json': { schema } } } } } } },
    components: { schemas: components },
  };
}

const NAMED = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

interface Case {
  readonly name: string;
  readonly document: object;
  /** [body, whether it conforms, headers besides Content-Type] */
  readonly answers: ReadonlyArray<readonly [string, boolean, Record<string, string>?]>;
  /** The answer a regression file is emitted for (verify fails it), with its headers; an array body by default. */
  readonly failing?: readonly [string, Record<string, string>];
}

const CASES: readonly Case[] = [
  {
    name: 'allOf (merged as prism merges it)',
    document: documentWith({ allOf: [NAMED, { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] }),
    answers: [
      ['{"name":"a","id":1}', true],
      ['{"name":"a"}', false],
      ['{"name":"a","id":"1"}', false],
    ],
  },
  {
    name: 'writeOnly (a required writeOnly property is never in an answer)',
    document: documentWith({
      type: 'object',
      required: ['name', 'password'],
      properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } },
    }),
    answers: [
      ['{"name":"a"}', true],
      ['{"password":"p"}', false],
    ],
  },
  {
    name: 'pattern',
    document: documentWith({ type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^[a-z]{3}$' } } }),
    answers: [
      ['{"code":"abc"}', true],
      ['{"code":"ABC"}', false],
      ['{"code":"abcd"}', false],
    ],
  },
  {
    name: 'format (prism-http date-time, ajv-formats uuid, email, date)',
    document: documentWith({
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        mail: { type: 'string', format: 'email' },
        day: { type: 'string', format: 'date' },
      },
    }),
    answers: [
      ['{"at":"2026-01-05T09:30:00+01:00","id":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","mail":"a@b.example","day":"2024-02-29"}', true],
      ['{"at":"yesterday"}', false],
      ['{"id":"not-a-uuid"}', false],
      ['{"mail":"nobody"}', false],
      ['{"day":"2023-02-29"}', false],
    ],
  },
  {
    name: '$ref (a recursive schema prism leaves as a $ref into its bundle)',
    document: documentWith(
      { $ref: '#/components/schemas/Node' },
      {
        Node: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1 }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
        },
      },
    ),
    answers: [
      ['{"name":"root","children":[{"name":"leaf","children":[]}]}', true],
      ['{"name":"root","children":[{"name":""}]}', false],
      ['{"name":"root","children":[{"children":[]}]}', false],
    ],
  },
  {
    name: 'multipleOf, exclusive bounds and minItems',
    document: documentWith({
      type: 'object',
      properties: { step: { type: 'number', multipleOf: 5, exclusiveMinimum: true, minimum: 0 }, tags: { type: 'array', minItems: 1 } },
    }),
    answers: [
      ['{"step":5,"tags":["a"]}', true],
      ['{"step":7}', false],
      ['{"step":0}', false],
      ['{"tags":[]}', false],
    ],
  },
  {
    name: 'int64, read exactly (2^63 − 1 is an int64, 2^63 is not)',
    document: documentWith({ type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } }),
    answers: [
      ['{"id":9223372036854775807}', true],
      ['{"id":-9223372036854775808}', true],
      ['{"id":9223372036854775808}', false],
      ['{"id":1.5}', false],
    ],
  },
  {
    name: 'declared headers (read as text, coerced to their schema)',
    document: {
      openapi: '3.0.3',
      info: { title: 'Things', version: '1' },
      paths: {
        '/thing': {
          get: {
            responses: {
              '200': {
                description: 'the thing',
                headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 0 } } },
                content: { 'application/json': { schema: NAMED } },
              },
            },
          },
        },
      },
    },
    failing: ['{"name":"a"}', {}],
    answers: [
      ['{"name":"a"}', true, { 'x-rate-limit': '99' }],
      ['{"name":"a"}', false, {}],
      ['{"name":"a"}', false, { 'x-rate-limit': 'lots' }],
      ['{"name":"a"}', false, { 'x-rate-limit': '-1' }],
    ],
  },
];

/** The answer checks of `verify` that judge conformance to the document. */
const ANSWER_CHECKS = new Set(['status-conformance', 'content-type-conformance', 'response-schema-conformance', 'response-headers-conformance']);

function verifyFindings(operation: Operation, body: string, headers: Record<string, string> = {}): ReturnType<(typeof CHECKS)[number]['judge']>[] {
  const context: CheckContext = { operation, expectUniqueIds: false };
  const response = { status: 200, headers: { ...JSON_TYPE, ...headers }, body, durationMs: 1 };
  const exchange = {
    request: { method: 'GET', url: 'http://127.0.0.1:1/thing', headers: {}, label: 'agreement' },
    response,
    facts: { role: 'model' as const, kind: 'valid' as const, target: 'body' as const },
  };
  return CHECKS.filter((check) => ANSWER_CHECKS.has(check.id)).map((check) => check.judge(exchange, context));
}

/** verify's verdict: no answer check fails. */
function verifyConforms(operation: Operation, body: string, headers: Record<string, string> = {}): boolean {
  return verifyFindings(operation, body, headers).every((verdict) => verdict === undefined || verdict.outcome === 'pass');
}

/** The proxy's verdict: no violation. */
function proxyConforms(operation: Operation, body: string, headers: Record<string, string> = {}): boolean {
  return compileResponseCheck(operation)(200, { ...JSON_TYPE, ...headers }, Buffer.from(body)).length === 0;
}

/** The regression file verify emits for the failing `finding`, its EXPECTATION read back as the file holds it. */
function emittedExpectation(finding: Finding): Expectation {
  const report = failedReport([finding], 'http://127.0.0.1:1', 'things.yaml');
  const source = regressionSource(report, finding);
  const match = /const EXPECTATION: Expectation = ([\s\S]*?);\n\nregressionTest\(/.exec(source);
  if (match === null) throw new Error(`no EXPECTATION in:\n${source}`);
  return JSON.parse(match[1] as string) as Expectation;
}

/** The finding verify makes of a failing answer (by default an array, plainly not the thing), as a regression file. */
function regressionFor(operation: Operation, [body, headers]: readonly [string, Record<string, string>] = ['[]', {}]): Expectation {
  const verdict = verifyFindings(operation, body, headers).find((v) => v !== undefined && v.outcome === 'fail');
  if (verdict === undefined || verdict.outcome === 'pass') throw new Error(`verify did not fail ${body}`);
  const request = { method: 'GET', url: 'http://127.0.0.1:1/thing', headers: {}, label: 'agreement' };
  return emittedExpectation({
    check: verdict.expectation.kind === 'json-schema' ? 'response-schema-conformance' : 'response-headers-conformance',
    severity: 'failure',
    outcome: 'fail',
    message: verdict.message,
    count: 1,
    expected: verdict.expected,
    actual: verdict.actual,
    expectation: verdict.expectation,
    request,
    seed: 1,
    shrunk: false,
  });
}

/** The replayed regression file's verdict on `body`. */
function replayConforms(expectation: Expectation, body: string, headers: Record<string, string> = {}): boolean {
  try {
    assertExpectation(expectation, { status: 200, headers: { ...JSON_TYPE, ...headers }, text: body }, {});
    return true;
  } catch {
    return false;
  }
}

describe('verify, the proxy and a replayed regression file judge every answer alike', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { document, answers, failing }) => {
    const [operation] = (await loadDocument(document)).operations;
    if (operation === undefined) throw new Error('no operation');
    const expectation = regressionFor(operation, failing);
    const verdicts = answers.map(([body, conforms, headers]) => ({
      body,
      headers,
      document: conforms,
      verify: verifyConforms(operation, body, headers),
      proxy: proxyConforms(operation, body, headers),
      replay: replayConforms(expectation, body, headers),
    }));
    const expected = answers.map(([body, conforms, headers]) => ({ body, headers, document: conforms, verify: conforms, proxy: conforms, replay: conforms }));
    expect(verdicts).toEqual(expected);
  });
});
