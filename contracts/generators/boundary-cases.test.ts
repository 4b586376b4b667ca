import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { boundaryCases } from './boundary-cases.js';
import { parseJsonExact } from './json-value.js';
import { prismValidationErrors } from './prism-validation.js';
import { jsonRequestBody } from './request-cases.js';

describe('boundaryCases', async () => {
  const [operation] = (await loadDocument()).operations;
  if (!operation) throw new Error('the bundled document has no operation');
  const cases = boundaryCases(operation, { token: 't' });
  const payloads = cases.map((requestCase) => parseJsonExact(requestCase.body ?? '') as Record<string, unknown>);

  it('sends the values that break implementations, every one of them', () => {
    const names = payloads.map((payload) => payload.name);
    for (const edge of ['', '\u0000', '🌱', 'שלום עולם', 'e\u0301', 'x'.repeat(10_000)]) expect(names).toContain(edge);
    const ids = payloads.map((payload) => payload.id);
    for (const edge of [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, 2n ** 53n + 1n, 0, -1]) expect(ids).toContainEqual(edge);
    expect(payloads.some((payload) => !('tag' in payload))).toBe(true);
    expect(payloads.some((payload) => payload.tag === '')).toBe(true);
  });

  it('sends only valid requests, with credentials and the JSON content type', () => {
    const schema = jsonRequestBody(operation)?.schema;
    if (!schema) throw new Error('no request schema');
    for (const requestCase of cases) {
      expect(requestCase.kind).toBe('valid');
      expect(requestCase.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer t' });
      expect(prismValidationErrors(JSON.parse(requestCase.body ?? ''), schema), requestCase.body).toEqual([]);
    }
  });

  it('is the same list every time, so run i is always the same request', () => {
    expect(boundaryCases(operation, { token: 't' }).map((requestCase) => requestCase.body)).toEqual(cases.map((requestCase) => requestCase.body));
  });
});

describe('boundaryCases of an operation with required header and query parameters', async () => {
  const document = await loadDocument(new URL('../../test/fixtures/documents/cloudevents-headers.yaml', import.meta.url).pathname);
  const [operation] = document.operations;
  if (!operation) throw new Error('the cloudevents document has an operation');

  it('carry them in every case, as every valid request does', () => {
    const cases = boundaryCases(operation);
    expect(cases.length).toBeGreaterThan(3);
    for (const requestCase of cases) {
      expect(Object.keys(requestCase.headers)).toEqual(expect.arrayContaining(['ce-specversion', 'ce-type', 'ce-source', 'ce-id']));
      expect(requestCase.headers['ce-specversion']).toBe('1.0');
      expect(requestCase.path).toMatch(/^\/cloudevents\?channel=(twin|live)$/);
    }
  });
});
