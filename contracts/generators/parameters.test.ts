/**
 * Every operation, not only JSON creates: parameters from their schemas (valid and invalid),
 * bodies in other media types, optional bodies left out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { invalidCaseFamilies, validCases } from './request-cases.js';

const inline = (paths: object) => loadDocument({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths });

describe('parameters', () => {
  it('a list’s optional cursor is never drawn (Ory Kratos’s page_token): only the server can give one; a required one is sent', async () => {
    const document = await inline({
      '/identities': {
        get: {
          parameters: [
            { name: 'page_token', in: 'query', schema: { type: 'string' } },
            { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/messages': {
        get: { parameters: [{ name: 'cursor', in: 'query', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      },
    });
    const [identities, messages] = document.operations;
    const paths = fc.sample(validCases(identities!), { seed: 3, numRuns: 200 }).map((c) => c.path);
    expect(paths.some((path) => path.includes('per_page='))).toBe(true);
    expect(paths.filter((path) => path.includes('page_token'))).toEqual([]);
    expect(fc.sample(validCases(messages!), { seed: 3, numRuns: 20 }).every((c) => c.path.includes('cursor='))).toBe(true);
  });

  it('a query parameter of int32 is sent within int32 and sometimes left out; a path int64 is written digit for digit', async () => {
    const document = await inline({
      '/plants': {
        get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', format: 'int32' } }], responses: { '200': { description: 'ok' } } },
      },
      '/plants/{id}': {
        delete: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
          responses: { '204': { description: 'ok' } },
        },
      },
    });
    const [list, remove] = document.operations;
    const paths = fc.sample(validCases(list!), { seed: 3, numRuns: 300 }).map((c) => c.path);
    expect(paths).toContain('/plants');
    const limits = paths.flatMap((p) => (/\?limit=(-?\d+)$/.exec(p) ?? []).slice(1)).map(BigInt);
    expect(limits.length).toBeGreaterThan(50);
    expect(limits.every((l) => l >= -(2n ** 31n) && l < 2n ** 31n)).toBe(true);
    const ids = fc.sample(validCases(remove!), { seed: 3, numRuns: 2000 }).map((c) => /^\/plants\/(-?\d+)$/.exec(c.path)?.[1]);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(ids.some((id) => BigInt(id!) > 2n ** 53n)).toBe(true);
  });

  it('invalid families break one parameter: not an integer, beyond its format', async () => {
    const document = await inline({
      '/plants/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
            { name: 'q', in: 'query', required: true, schema: { type: 'integer', format: 'int32' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    });
    const families = invalidCaseFamilies(document.operations[0]!);
    const labels = families.map((f) => f.breaks);
    expect(labels).toEqual(
      expect.arrayContaining([
        "path: parameter 'id' is not an integer",
        "path: parameter 'id' is beyond int64",
        "query: missing required parameter 'q'",
        "query: parameter 'q' is beyond int32",
      ]),
    );
    const beyond = families.find((f) => f.breaks === "path: parameter 'id' is beyond int64")!;
    for (const c of fc.sample(beyond.arbitrary, { seed: 1, numRuns: 20 })) {
      expect(c.kind).toBe('invalid');
      expect(c.path).toMatch(/^\/plants\/(9223372036854775808|-9223372036854775809|18446744073709551616)\?q=-?\d+$/);
    }
  });
});

describe('bodies', () => {
  it('a form body is sent form-encoded; an optional body is sometimes left out, without a content type', async () => {
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, n: { type: 'integer', format: 'int64' } } };
    const document = await inline({
      '/f': { post: { requestBody: { content: { 'application/x-www-form-urlencoded': { schema } } }, responses: { '200': { description: 'ok' } } } },
    });
    const cases = fc.sample(validCases(document.operations[0]!), { seed: 5, numRuns: 300 });
    const withBody = cases.filter((c) => c.body !== undefined);
    expect(withBody.length).toBeGreaterThan(0);
    for (const c of withBody) {
      expect(c.headers['content-type'] ?? c.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
      expect(new URLSearchParams(c.body).get('name')).toBe((c.payload as { name: string }).name);
    }
    const without = cases.filter((c) => c.body === undefined);
    expect(without.length).toBeGreaterThan(0);
    expect(without.every((c) => c.headers['content-type'] === undefined && c.headers['Content-Type'] === undefined)).toBe(true);
  });

  it('an empty JSON body is invalid only where the body is required', async () => {
    const body = (required: boolean) => ({ required, content: { 'application/json': { schema: { type: 'object' } } } });
    const document = await inline({
      '/a': { post: { requestBody: body(true), responses: { '200': { description: 'ok' } } } },
      '/b': { post: { requestBody: body(false), responses: { '200': { description: 'ok' } } } },
    });
    const [required, optional] = document.operations.map((o) => invalidCaseFamilies(o).map((f) => f.breaks));
    expect(required).toContain('body: empty');
    expect(optional).not.toContain('body: empty');
  });

  it('valid JSON requests vary the charset parameter, the header name case and property order', async () => {
    const schema = { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } }, additionalProperties: false };
    const document = await inline({
      '/x': { post: { requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } },
    });
    const cases = fc.sample(validCases(document.operations[0]!), { seed: 8, numRuns: 400 });
    expect(cases.some((c) => c.headers['content-type'] === 'application/json; charset=utf-8')).toBe(true);
    expect(cases.some((c) => c.headers['Content-Type'] !== undefined)).toBe(true);
    expect(cases.some((c) => c.body?.startsWith('{"b"'))).toBe(true);
    expect(cases.some((c) => c.body?.startsWith('{"a"'))).toBe(true);
  });
});
