/**
 * compileRefusalShaper on hand-built operations: the shapes the HTTP tests do not reach (a nested
 * error object, a $ref into prism's bundle, bounds a refusal's number breaks, a lone title, text),
 * each body checked against its schema by the same compiled check the validator uses.
 */
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { failure } from '../../src/core/errors.js';
import { compileRefusalShaper } from '../../src/core/openapi/refusal-body.js';
import { compileSchemaCheck } from '../../src/core/prism/adapter.js';

type Schema = Record<string, unknown>;

function operation(code: string, mediaType: string, schema?: Schema, bundled?: unknown): IHttpOperation {
  const content = schema === undefined ? { id: 'c', mediaType } : { id: 'c', mediaType, schema };
  return { id: 'o', method: 'post', path: '/x', responses: [{ id: 'r', code, contents: [content] }], __bundled__: bundled } as unknown as IHttpOperation;
}

const invalid = failure('schemaViolation', "Request body must have required property 'name'");

/** The body written for a 422, parsed, after checking it against `schema`. */
function bodyFor(shaped: IHttpOperation, schema: Schema, bundled?: unknown): unknown {
  const { body } = compileRefusalShaper(shaped)(invalid, 422);
  const value = JSON.parse(body) as unknown;
  expect(compileSchemaCheck(schema, bundled)(value), body).toBeUndefined();
  return value;
}

describe('refusal bodies by meaning', () => {
  it('fills a nested error object (Google style)', () => {
    const schema = {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message', 'status'],
          properties: { code: { type: 'integer' }, message: { type: 'string' }, status: { type: 'string', enum: ['INVALID_ARGUMENT', 'NOT_FOUND'] } },
        },
      },
    };
    expect(bodyFor(operation('422', 'application/json', schema), schema)).toEqual({
      error: { code: 422, message: invalid.message, status: 'INVALID_ARGUMENT' },
    });
  });

  it('follows a $ref into the bundle prism keeps with the operation', () => {
    const bundled = { Error: { type: 'object', required: ['code', 'detail'], properties: { code: { type: 'integer' }, detail: { type: 'string' } } } };
    const schema = { $ref: '#/__bundled__/Error' };
    const shaped = operation('default', 'application/json', schema, bundled);
    expect(bodyFor(shaped, { ...schema, __bundled__: bundled }, bundled)).toEqual({ code: 422, detail: invalid.message });
  });

  it('keeps a number field within its bounds: the HTTP status, else a value the schema allows', () => {
    const enumerated = {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer', enum: [1, 2] }, message: { type: 'string', maxLength: 10 } },
    };
    expect(bodyFor(operation('4XX', 'application/json', enumerated), enumerated)).toEqual({ code: 1, message: invalid.message.slice(0, 10) });
    const bounded = { type: 'object', required: ['code'], properties: { code: { type: 'integer', minimum: 1000 } } };
    expect(bodyFor(operation('422', 'application/json', bounded), bounded)).toEqual({ code: 1000 });
  });

  it("says the refusal's own status where the schema's example is a status's phrase (DigitalOcean's id: not_found)", () => {
    // DigitalOcean's shared error: `id`, "a short identifier corresponding to the HTTP status code", example not_found.
    const schema = {
      type: 'object',
      required: ['id', 'message'],
      properties: { id: { type: 'string', example: 'not_found' }, message: { type: 'string' }, request_id: { type: 'string' } },
    };
    const shaper = compileRefusalShaper(operation('default', 'application/json', schema));
    expect(JSON.parse(shaper(invalid, 400).body)).toEqual({ id: 'bad_request', message: invalid.message });
    expect(JSON.parse(shaper(failure('itemNotFound', 'no tag with id "x"'), 404).body)).toEqual({ id: 'not_found', message: 'no tag with id "x"' });
    expect(bodyFor(operation('422', 'application/json', schema), schema)).toEqual({ id: 'unprocessable_entity', message: invalid.message });
    // Written in the example's style; an example that is no status's phrase stays as it is.
    const upper = { type: 'object', required: ['kind'], properties: { kind: { type: 'string', example: 'NOT-FOUND' }, message: { type: 'string' } } };
    expect(JSON.parse(compileRefusalShaper(operation('default', 'application/json', upper))(invalid, 400).body)).toMatchObject({ kind: 'BAD-REQUEST' });
    const word = { type: 'object', required: ['id'], properties: { id: { type: 'string', example: 'conflict' }, message: { type: 'string' } } };
    expect(JSON.parse(compileRefusalShaper(operation('default', 'application/json', word))(invalid, 400).body)).toMatchObject({ id: 'bad_request' });
    const other = { type: 'object', required: ['id'], properties: { id: { type: 'string', example: 'plants' }, message: { type: 'string' } } };
    expect(JSON.parse(compileRefusalShaper(operation('default', 'application/json', other))(invalid, 400).body)).toMatchObject({ id: 'plants' });
  });

  it('puts the message in a lone title, and the phrase in a title beside a detail', () => {
    const lone = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };
    expect(bodyFor(operation('422', 'application/json', lone), lone)).toEqual({ title: invalid.message });
    const both = { type: 'object', required: ['title', 'detail'], properties: { title: { type: 'string' }, detail: { type: 'string' } } };
    expect(bodyFor(operation('422', 'application/json', both), both)).toEqual({ title: 'Unprocessable Entity', detail: invalid.message });
  });

  it('writes problem details for problem+json without a schema, text for text/plain, ours otherwise', () => {
    const problem = compileRefusalShaper(operation('422', 'application/problem+json'))(invalid, 422);
    expect(problem.contentType).toBe('application/problem+json');
    expect(JSON.parse(problem.body)).toEqual({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: invalid.message });
    expect(bodyFor(operation('422', 'application/json', { type: 'string' }), { type: 'string' })).toBe(invalid.message);
    expect(compileRefusalShaper(operation('422', 'text/plain'))(invalid, 422)).toEqual({ contentType: 'text/plain', body: invalid.message });
    expect(compileRefusalShaper(operation('404', 'application/json'))(invalid, 422)).toEqual({
      contentType: 'application/json',
      body: JSON.stringify({ error: 422, message: invalid.message }),
    });
  });
});
