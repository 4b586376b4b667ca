/**
 * Refusals in the document's own shape (test/fixtures/error-shapes.yaml): each body is built from
 * the response the operation declares for the status chosen, and prism-http's output validation
 * (validateOutput, the reference the suite trusts) finds it valid against that operation.
 */
import { fileURLToPath } from 'node:url';
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { validateOutput } from '../../src/core/prism/adapter.js';
import { AUTH, JSON_TYPE, send, serverFor, VALID_HEADERS, type Reply } from '../support/server.js';

const SHAPES = fileURLToPath(new URL('../fixtures/error-shapes.yaml', import.meta.url));

describe('refusal bodies in the shape each document declares', () => {
  const server = serverFor({ spec: SHAPES });
  const post = (path: string, body: string, headers: Readonly<Record<string, string>> = VALID_HEADERS) =>
    send(`${server.current.url}${path}`, { method: 'POST', headers, body });

  /** prism's verdict on the answer, for the operation at `path`; the test fails with its diagnostics. */
  function expectValid(path: string, reply: Reply): void {
    const operation = server.current.document.operations.find((candidate) => candidate.path === path) as IHttpOperation;
    const result = validateOutput({ resource: operation, element: { statusCode: reply.status, headers: { ...reply.headers }, body: reply.json } });
    expect(result._tag === 'Right' ? [] : result.left.map((diagnostic) => diagnostic.message), reply.text).toEqual([]);
  }

  it("prism's check is sharp: our {error, message} breaks the petstore-expanded shape", () => {
    const operation = server.current.document.operations.find((candidate) => candidate.path === '/pets') as IHttpOperation;
    const ours = validateOutput({
      resource: operation,
      element: { statusCode: 422, headers: { 'content-type': 'application/json' }, body: { error: 422, message: 'x' } },
    });
    expect(ours._tag).toBe('Left');
  });

  it('answers {code, message} under default (petstore-expanded), for every kind of refusal', async () => {
    const cases = [
      [await post('/pets', '{"name":"x"}', JSON_TYPE), 401],
      [await post('/pets', '{"name":"x"}', { ...AUTH, 'content-type': 'text/plain' }), 415],
      [await post('/pets', '{"name":5}'), 422],
      [await post('/pets', '{"name":'), 400],
    ] as const;
    for (const [reply, status] of cases) {
      expect(reply.status, reply.text).toBe(status);
      expect(reply.headers['content-type']).toBe('application/json');
      expect(reply.json).toEqual({ code: status, message: expect.stringMatching(/.+/) });
      expectValid('/pets', reply);
    }
    // The refusal's own headers stay (RFC 6750).
    expect(cases[0][0].headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers application/problem+json where declared, with type, title, status and detail', async () => {
    const invalid = await post('/problems', '{}');
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-type']).toBe('application/problem+json');
    expect(invalid.json).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: expect.stringContaining('name'),
    });
    expectValid('/problems', invalid);
    const malformed = await post('/problems', '{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
    expectValid('/problems', malformed);
  });

  it('fills every required field of an error schema with extra ones, validly', async () => {
    const reply = await post('/strict', '{}');
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({
      kind: 'validation',
      message: expect.stringContaining('name'),
      requestId: expect.any(String),
      occurredAt: expect.any(String),
      retryable: false,
      severity: 1,
      errors: [{ field: expect.any(String), reason: expect.stringContaining('name') }],
    });
    expectValid('/strict', reply);
    const wrongType = await post('/strict', '{"name":"x"}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expectValid('/strict', wrongType);
  });

  it('keeps our {error, message} where the document declares that shape', async () => {
    const reply = await post('/things', '{"name":5}', JSON_TYPE);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({ error: 422, message: expect.stringContaining('name') });
  });

  it("puts the reason in the first list of texts where no field is named for it (Conduit's {errors: {body: [text]}})", async () => {
    const invalid = await post('/conduit', '{}');
    expect(invalid.status).toBe(422);
    expect(invalid.json).toEqual({ errors: { body: [expect.stringContaining('name')] } });
    expectValid('/conduit', invalid);
    const unauthorized = await post('/conduit', '{"name":"x"}', JSON_TYPE);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json).toEqual({ errors: { body: ['missing Authorization header; send "Authorization: Bearer <token>"'] } });
    expectValid('/conduit', unauthorized);
  });

  it("adds an optional list of texts for the reason, within its items' maxLength, past a formatted text", async () => {
    const reply = await post('/listed', '{"name":"x'.padEnd(20, 'x'));
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ id: expect.any(String), errors: [expect.stringMatching(/^.{1,200}$/)] });
    expectValid('/listed', reply);
  });
});
