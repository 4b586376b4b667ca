/**
 * verify against Stoplight Prism's mock, a real server nobody here wrote. Prism answers each request
 * with a value it generates from the document's declared answer (or its example) and keeps nothing.
 * So the checks of one answer find it as declared (our judge agrees with another tool's reading of
 * the same schemas: no false alarm), and the checks of a resource's life find that it keeps nothing
 * (a stateless mock is told apart from a stand-in). Its own faults are reported as what they are.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { CheckId, VerifyReport } from '../../contracts/report.js';
import { startPrismMock, type PrismMock } from '../support/prism-mock.js';

const PLANT_STORE = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));

describe('verify against prism mock of the public Plant Store', () => {
  let prism: PrismMock;
  let report: VerifyReport;
  beforeAll(async () => {
    prism = await startPrismMock(PLANT_STORE, '/plants');
    report = await verify({ target: prism.url, spec: PLANT_STORE, token: 'any-token', runs: 20, seed: 3, timeoutMs: 5_000 });
  }, 180_000);
  afterAll(async () => {
    await prism?.stop();
  });

  const statusOf = (id: CheckId) => report.checks.find((check) => check.id === id);

  it('finds every answer as the document declares it: shape, media type, auth refused', () => {
    for (const id of ['response-schema-conformance', 'content-type-conformance', 'auth-enforced'] as const) {
      expect(statusOf(id)?.status, `${id}: ${statusOf(id)?.findings[0]?.message ?? ''}`).toBe('passed');
      expect(statusOf(id)?.cases, id).toBeGreaterThan(0);
    }
  });

  it('finds that it keeps nothing: what was created is not listed, a list does not keep to its limit', () => {
    expect(report.ok).toBe(false);
    expect(statusOf('created-item-listed')?.status).toBe('failed');
    expect(statusOf('list-limit-respected')?.status).toBe('failed');
  });

  it('reports its answers to malformed JSON, which never come, as no answer in time', () => {
    const finding = statusOf('no-server-errors')?.findings.find((f) => /malformed JSON/.test(f.message));
    expect(finding?.message).toMatch(/did not answer in time/);
  });
});
