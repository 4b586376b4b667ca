/** The checks that read an answer's body: response-schema-conformance and response-reflects-request, on hand-made exchanges. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument, type Operation } from '../../src/core/openapi/load-document.js';
import { jsonObject } from '../generators/json-value.js';
import type { CheckContext } from './index.js';
import { answer, badRequest, createPlantContext, exchange, ok } from './exchanges.test-support.js';
import { responseReflectsRequest } from './response-reflects-request.js';
import { responseSchemaConformance } from './response-schema-conformance.js';

let context: CheckContext;
beforeAll(async () => {
  context = await createPlantContext();
});

describe('response-schema-conformance', () => {
  it('passes bodies matching Plant (200) and Error (400)', () => {
    expect(responseSchemaConformance.judge(exchange({}, ok), context)?.outcome).toBe('pass');
    expect(responseSchemaConformance.judge(exchange({}, badRequest), context)?.outcome).toBe('pass');
  });

  it('fails wrong types, missing required properties, int32 overflow and non-JSON', () => {
    const cases: Array<[number, unknown, RegExp]> = [
      [200, { name: 5 }, /name must be string/],
      [200, { tag: 'x' }, /name/],
      [400, { error: '400', message: 'x' }, /error must be integer/],
      [400, { error: 2 ** 32 + 400, message: 'x' }, /2147483647/],
      [400, { error: 400 }, /message/],
      [400, 'not json', /not JSON/],
      [200, '', /not JSON/],
    ];
    for (const [status, body, pattern] of cases) {
      const verdict = responseSchemaConformance.judge(exchange({}, answer(status, body)), context);
      expect(verdict?.outcome, JSON.stringify(body)).toBe('fail');
      expect(verdict?.outcome === 'fail' && verdict.message).toMatch(pattern);
      expect(verdict?.outcome === 'fail' && verdict.expectation.kind).toBe('json-schema');
    }
  });

  it("holds only JSON bodies to their schemas: an image/png declared as a binary string is bytes (the Museum API's ticket QR code)", async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'qr', version: '1' },
      paths: {
        '/qr': {
          get: {
            responses: {
              '200': {
                description: 'the code',
                content: {
                  'image/png': { schema: { type: 'string', format: 'binary' } },
                  'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } } },
                },
              },
            },
          },
        },
      },
    };
    const [qr] = (await loadDocument(document)).operations;
    if (!qr) throw new Error('no operation');
    const judge = (body: string, type: string) =>
      responseSchemaConformance.judge(exchange({}, answer(200, body, { 'content-type': type })), { operation: qr, expectUniqueIds: false })?.outcome;
    expect(judge('\u0089PNG\r\n', 'image/png')).toBeUndefined();
    expect(judge('{"code":"x"}', 'application/json')).toBe('pass');
    expect(judge('{"code":5}', 'application/json')).toBe('fail');
  });

  it('judges the body only: a wrong media type or an undeclared status is reported elsewhere', () => {
    expect(responseSchemaConformance.judge(exchange({}, answer(200, { name: 'x' }, { 'content-type': 'text/plain' })), context)?.outcome).toBe('pass');
    expect(responseSchemaConformance.judge(exchange({}, answer(401, 'whatever')), context)).toBeUndefined();
  });
});

describe('response-reflects-request', () => {
  it('passes an exact echo of name and tag', () => {
    expect(responseReflectsRequest.judge(exchange({}, ok), context)?.outcome).toBe('pass');
  });

  it('fails a changed name, a dropped tag, and a tag that was never sent', () => {
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { name: 'string', tag: 'aroid' })), context)?.outcome).toBe('fail');
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { name: 'Monstera' })), context)?.outcome).toBe('fail');
    const untagged = jsonObject([
      ['name', 'Cactus'],
      ['id', 1n],
    ]);
    const verdict = responseReflectsRequest.judge(exchange({}, answer(200, { name: 'Cactus', tag: 'x' }), untagged), context);
    expect(verdict?.outcome === 'fail' && verdict.expected).toBe('no tag (none was sent)');
  });

  it('compares strings exactly, NUL and astral characters included', () => {
    const odd = jsonObject([
      ['name', 'a\u0000b🌱'],
      ['id', 1n],
    ]);
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { name: 'a\u0000b🌱' }), odd), context)?.outcome).toBe('pass');
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { name: 'ab🌱' }), odd), context)?.outcome).toBe('fail');
  });

  // tickets.yaml: one Ticket schema both ways, its id and createdAt readOnly; a PATCH of status only.
  const ticket = {
    type: 'object',
    required: ['title'],
    properties: {
      id: { type: 'string', readOnly: true },
      title: { type: 'string' },
      status: { type: 'string' },
      createdAt: { type: 'string', readOnly: true },
    },
  };
  const ticketOperation = (method: string, requestSchema: object, responseSchema: object = ticket) =>
    ({
      id: method,
      iid: method,
      method,
      path: '/tickets',
      request: { body: { contents: [{ mediaType: 'application/json', schema: requestSchema }] } },
      responses: [{ code: method === 'post' ? '201' : '200', contents: [{ mediaType: 'application/json', schema: responseSchema }] }],
    }) as unknown as Operation;
  const sentTitle = jsonObject([['title', 'printer']]);

  it('does not call a readOnly property (a server-assigned id) "not sent"', () => {
    const post = { operation: ticketOperation('post', ticket), expectUniqueIds: false };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id: 'u-1', title: 'printer', createdAt: 'now' }), sentTitle), post)?.outcome).toBe('pass');
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id: 'u-1', title: 'printer', status: 'open' }), sentTitle), post)?.outcome).toBe('fail');
    // An id sent anyway may be ignored: the server assigns its own.
    const sentId = jsonObject([
      ['id', 'mine'],
      ['title', 'printer'],
    ]);
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id: 'u-1', title: 'printer' }), sentId), post)?.outcome).toBe('pass');
  });

  it('does not call "not sent" what the answer requires and the request left out', () => {
    const plain = { type: 'object', properties: { title: { type: 'string' }, status: { type: 'string' } } };
    const post = { operation: ticketOperation('post', plain, { ...plain, required: ['title', 'status'] }), expectUniqueIds: false };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { title: 'printer', status: 'open' }), sentTitle), post)?.outcome).toBe('pass');
  });

  it('lets a PATCH answer keep the stored properties the patch did not send, but holds what it did send', () => {
    const patch = {
      operation: ticketOperation('patch', { type: 'object', properties: { status: { type: 'string' }, title: { type: 'string' } } }),
      expectUniqueIds: false,
    };
    const sent = jsonObject([['status', 'closed']]);
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { id: 'u-1', title: 'printer', status: 'closed' }), sent), patch)?.outcome).toBe('pass');
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { id: 'u-1', title: 'printer', status: 'open' }), sent), patch)?.outcome).toBe('fail');
  });

  it('lets the server assign an identifier the client may leave out (assignedBy either), and holds one that was sent', () => {
    const pet = { type: 'object', properties: { id: { type: 'integer', format: 'int64' }, title: { type: 'string' } } };
    const post = { operation: ticketOperation('post', pet, pet), expectUniqueIds: false, assignedIdentifier: 'id' };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id: 7, title: 'printer' }), sentTitle), post)?.outcome).toBe('pass');
    expect(
      responseReflectsRequest.judge(exchange({}, answer(201, { id: 7, title: 'printer' }), sentTitle), { ...post, assignedIdentifier: undefined })?.outcome,
    ).toBe('fail');
    const sentId = jsonObject([
      ['id', 5n],
      ['title', 'printer'],
    ]);
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id: 7, title: 'printer' }), sentId), post)?.outcome).toBe('fail');
  });

  it('leaves refusals and non-JSON answers alone', () => {
    expect(responseReflectsRequest.judge(exchange({}, badRequest), context)).toBeUndefined();
    expect(responseReflectsRequest.judge(exchange({}, answer(200, 'oops')), context)).toBeUndefined();
  });
});

describe('response-schema-conformance with int64 in a response', () => {
  it('takes ids beyond 2^53 that the schema allows, and refuses ids beyond int64', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'echo', version: '1' },
      paths: {
        '/plants': {
          post: {
            operationId: 'createPlant',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } } } },
              },
            },
          },
        },
      },
    };
    const [echoing] = (await loadDocument(document)).operations;
    if (!echoing) throw new Error('no operation');
    const judge = (text: string) => responseSchemaConformance.judge(exchange({}, answer(200, text)), { operation: echoing, expectUniqueIds: false })?.outcome;
    expect(judge('{"id":9007199254740993}')).toBe('pass');
    expect(judge('{"id":9223372036854775807}')).toBe('pass');
    expect(judge('{"id":9223372036854775808}')).toBe('fail');
  });
});
