/**
 * Box keys alternatives of one route apart after a "#" ("/metadata_templates/schema#classifications"
 * beside "/metadata_templates/schema"): a fragment, which no client sends. serve listened on the
 * literal "…#add" (a PUT there got 405), verify wrote its query after the "#" (where it is not
 * sent), and a request invalid for one alternative, the other's valid one, was a false
 * negative-rejection failure when a correct server took it. Both now read the path before the "#"
 * (core/openapi/operation.ts requestPath), serve answers with the route's first operation, and
 * verify sends an operation that shares its route only the invalid requests every one refuses.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { serverFor } from '../support/server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/box-route-alternatives.json', import.meta.url));
const CLASSIFICATION = '/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema';

describe("Box's route alternatives (path keys apart after '#')", () => {
  const server = serverFor({ spec: SPEC });

  it('are operations on the path before the "#"', async () => {
    const document = await loadDocument(SPEC);
    expect(document.operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      `get ${CLASSIFICATION}`,
      'post /metadata_templates/schema',
      'post /metadata_templates/schema',
      `put ${CLASSIFICATION}`,
      `put ${CLASSIFICATION}`,
    ]);
  });

  it('serve answers a PUT of the classification schema (it had only a GET on that path)', async () => {
    const response = await fetch(`${server.current.url}${CLASSIFICATION}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer tok1', 'content-type': 'application/json' },
      body: '[]',
    });
    expect(response.status).not.toBe(405);
    expect(response.status).toBeLessThan(500);
  });

  it('verify raises no false alarm on serve', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: SPEC, auth: ['bearer:tok1'], runs: 10, seed: 1 });
    // Each operation here is mocked from its examples, which say back no sent scope: that is the mocker's, not the route's.
    const failed = report.checks
      .filter((check) => check.status === 'failed' && check.id !== 'response-reflects-request')
      .map((check) => `${check.id}: ${check.findings[0]?.message}`);
    expect(failed).toEqual([]);
    expect(report.checks.find((check) => check.id === 'negative-rejection')?.status).toBe('passed');
  });

  // The model-based sequences sent their invalid bodies regardless: `{"scope", "displayName", "fields"}`
  // without the classification's required templateKey, the plain create's valid one, was a false failure.
  it('verify --stateful raises no false alarm on serve either', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: SPEC, auth: ['bearer:tok1'], runs: 10, seed: 4, stateful: true });
    const rejection = report.checks.find((check) => check.id === 'negative-rejection');
    expect(rejection?.findings.map((finding) => finding.message)).toEqual([]);
    expect(rejection?.status).toBe('passed');
  });
});
