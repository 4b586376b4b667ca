/**
 * A property the create's own answer declares otherwise than its request body: Box's taxonomy
 * create takes any `key` text (at most 256 long) and answers a `key` of the pattern
 * `^[a-zA-Z_][-a-zA-Z0-9_]*$`, while the item (read from a list) declares none. serve stored and
 * answered `"key": ""` (verify: 68 answers broke the document). The held-value rule
 * (core/conformance/held-value.ts) now reads the operation's success answer as well as the item:
 * serve stores such a value only where the answer can hold it, verify expects it back only there.
 * Fixture: test/fixtures/documents/box-taxonomy-key.json (cut from Box's document, Apache-2.0).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/documents/box-taxonomy-key.json', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };

describe('a value the create’s answer cannot hold', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const create = (body: unknown) => send(`${server.current.url}/metadata_taxonomies`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });

  it('is not answered: the answer keeps to its schema', async () => {
    const document = await loadDocument(DOCUMENT);
    const created = await create({ key: '', displayName: 'Geography', namespace: 'enterprise_1' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).not.toHaveProperty('key');
    expectConforms(document, 'post', '/metadata_taxonomies', created);
  });

  it('is stored and answered as sent where the answer can hold it', async () => {
    const created = await create({ key: 'geography', displayName: 'Geography', namespace: 'enterprise_2' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ key: 'geography', namespace: 'enterprise_2' });
  });

  it('passes verify’s judging of answers, and is not expected back', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 30, seed: 4, stateful: true, timeoutMs: 5_000 });
    for (const id of ['response-schema-conformance', 'response-reflects-request'] as const) {
      const check = report.checks.find((candidate) => candidate.id === id);
      expect(check?.findings.map((finding) => finding.message) ?? [], id).toEqual([]);
      expect(check?.status, id).toBe('passed');
    }
  });
});
