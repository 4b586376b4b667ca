/**
 * The mocked answer taken from the document's examples (src/handlers/example-answer.ts, which
 * spares the first Prefer request the mocker's second of loading) is prism's mocker's answer,
 * exactly: for every operation of every document here, every declared code (and none, and one not
 * declared), every example name (and none, and an unknown one) and several Accept headers, where the
 * fast path answers, the mocker answers the same status, headers and body. Where it does not
 * answer, the mocker does, so it needs no judging there.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { mock } from '../../src/core/prism/adapter.js';
import { exampleAnswer } from '../../src/handlers/example-answer.js';
import type { MockPreferences } from '../../src/http/prefer.js';

type MockerLogger = Parameters<ReturnType<typeof mock>>[0];
const silent: MockerLogger = new Proxy({} as MockerLogger, { get: (_target, property) => (property === 'child' ? () => silent : () => undefined) });

const FIXTURES = 'test/fixtures/documents';
const FIXTURE_FILES = readdirSync(FIXTURES).filter((name) => name.endsWith('.yaml') && name !== 'webhook-example.yaml');

/** The negotiation's corners the documents above leave out: ranges, default, headers, deprecation, *∕*, no content. */
const CORNERS = {
  openapi: '3.0.3',
  info: { title: 'Corners', version: '1' },
  paths: {
    '/ranges': {
      get: {
        operationId: 'ranges',
        deprecated: true,
        responses: {
          '2XX': {
            description: 'a range',
            headers: {
              'X-Rate-Limit': { schema: { type: 'integer' }, examples: { low: { value: 5 }, high: { value: 500 } } },
              'X-Free-Form': { description: 'no schema' },
              'X-External': { schema: { type: 'string' }, examples: { far: { externalValue: 'https://example.com/x' } } },
            },
            content: {
              'application/json': { schema: { type: 'object' }, examples: { one: { value: { a: 1 } }, two: { value: { b: 2 } } } },
              'text/plain': { schema: { type: 'string' }, example: 'plain words' },
            },
          },
          '4XX': { description: 'no content' },
          default: { description: 'anything', content: { '*/*': { example: 'whatever' } } },
        },
      },
    },
    '/generated': {
      get: {
        operationId: 'generated',
        responses: {
          '200': {
            description: 'no example',
            headers: { 'X-Id': { schema: { type: 'string' } } },
            content: { 'application/json': { schema: { type: 'object' }, example: {} } },
          },
          '201': { description: 'schema only', content: { 'application/json': { schema: { type: 'string' } } } },
          '204': { description: 'empty' },
        },
      },
    },
    '/defaulted': { get: { operationId: 'defaulted', responses: { default: { description: 'only', content: { 'application/json': { example: [1, 2] } } } } } },
  },
};
const DOCUMENTS: Array<string | object> = [
  'spec/plant-store.yaml',
  'spec/plant-store-public.yaml',
  ...FIXTURE_FILES.map((name) => join(FIXTURES, name)),
  CORNERS,
];

function preferencesOf(operation: IHttpOperation): MockPreferences[] {
  const codes = new Set<number | undefined>([undefined, 418]);
  const keys = new Set<string | undefined>([undefined, 'no-such-example']);
  for (const response of operation.responses) {
    if (/^\d{3}$/.test(response.code)) codes.add(Number(response.code));
    else if (/^\dXX$/.test(response.code)) codes.add(Number(`${response.code.charAt(0)}01`));
    for (const content of response.contents ?? []) for (const example of content.examples ?? []) keys.add(example.key);
  }
  return [...codes].flatMap((code) => [...keys].map((example) => ({ ...(code === undefined ? {} : { code }), ...(example === undefined ? {} : { example }) })));
}

function acceptsOf(operation: IHttpOperation): Array<string | undefined> {
  const declared = operation.responses.flatMap((response) => (response.contents ?? []).map((content) => content.mediaType));
  return [undefined, '*/*', 'application/json', 'text/plain', 'application/xml;q=0.5, application/json', ...new Set(declared)];
}

describe('the answer from examples agrees with prism mocker', () => {
  it('for every operation, code, example and Accept of the documents here', async () => {
    let answered = 0;
    let compared = 0;
    for (const file of DOCUMENTS) {
      const document = await loadDocument(file);
      for (const operation of document.operations) {
        for (const preferences of preferencesOf(operation)) {
          for (const accept of acceptsOf(operation)) {
            compared += 1;
            const fast = exampleAnswer(operation, accept, preferences);
            if (fast === undefined) continue;
            answered += 1;
            const config = {
              dynamic: false,
              ...(preferences.code === undefined ? {} : { code: preferences.code }),
              ...(preferences.example === undefined ? {} : { exampleKey: preferences.example }),
            };
            const request = { method: operation.method as 'get', url: { path: operation.path }, headers: accept === undefined ? {} : { accept } };
            const result = mock({ resource: operation, input: { data: request, validations: [] }, config })(silent);
            const where = `${typeof file === 'string' ? file : 'corners'} ${operation.method} ${operation.path} ${JSON.stringify(preferences)} accept=${accept}`;
            expect(result._tag, where).toBe('Right');
            if (result._tag !== 'Right') continue;
            expect(fast, where).toEqual({ statusCode: result.right.statusCode, headers: result.right.headers, body: result.right.body });
            expect(Object.keys(fast.headers), where).toEqual(Object.keys(result.right.headers ?? {}));
          }
        }
      }
    }
    // The fast path must carry the usual cases, not only agree by answering nothing (many cases
    // here name an unknown example or code, which only the mocker words).
    expect(answered).toBeGreaterThan(compared / 5);
  }, 120_000);

  it("answers the corners' declared headers, deprecation and ranges itself, and leaves generation to the mocker", async () => {
    const [ranges, generated] = (await loadDocument(CORNERS)).operations;
    expect(ranges && exampleAnswer(ranges, undefined, { example: 'two' })).toEqual({
      statusCode: 200,
      headers: { 'X-External': null, 'X-Free-Form': null, 'X-Rate-Limit': 5, 'Content-type': 'application/json', deprecation: 'true' },
      body: { b: 2 },
    });
    expect(ranges && exampleAnswer(ranges, 'text/plain', { code: 404 })).toEqual({ statusCode: 404, headers: { deprecation: 'true' }, body: undefined });
    expect(generated && exampleAnswer(generated, undefined, {})).toBeUndefined();
    expect(generated && exampleAnswer(generated, undefined, { code: 201 })).toBeUndefined();
    expect(generated && exampleAnswer(generated, undefined, { code: 204 })).toEqual({
      statusCode: 204,
      headers: { 'Content-type': 'text/plain' },
      body: undefined,
    });
  });
});
