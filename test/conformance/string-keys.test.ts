/**
 * Client-assigned string identifiers (issue 10: ids sized to the schema, strings too): a correct
 * server of parts keyed by their sku (1 to 40 of [A-Za-z0-9_~-]) passes with no failure and no
 * warning, the duplicate, stateful and lifecycle scenarios run with never-used skus that keep the
 * sku's rules, and a server that refuses a fresh sku, or accepts a taken one where ids are expected
 * unique, is caught.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { CheckId, VerifyReport } from '../../contracts/report.js';
import { startServer } from '../../src/index.js';
import { PARTS_FAULTS, startPartsServer, type PartsFault } from './faulty-servers/parts-server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/parts.yaml', import.meta.url));
const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_123);
const TEST_TIMEOUT_MS = 120_000;

async function verifyParts(fault: PartsFault | undefined, expectUniqueIds = false): Promise<VerifyReport> {
  const server = await startPartsServer(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 30, seed: SEED, timeoutMs: 5_000, ...(expectUniqueIds ? { expectUniqueIds } : {}) });
  } finally {
    await server.close();
  }
}

function summary(report: VerifyReport): string {
  const lines = report.checks
    .filter((check) => check.status !== 'passed')
    .map(
      (check) =>
        `${check.id}: ${check.status}${check.findings[0] ? ` — ${check.findings[0].message}: ${check.findings[0].request.body ?? ''} → ${check.findings[0].actual}` : ''}`,
    );
  return lines.length === 0 ? 'every check passed' : lines.join('\n');
}

const judged = (report: VerifyReport, id: CheckId): number => report.checks.find((c) => c.id === id)?.cases ?? 0;

describe('a correct server of string-keyed parts', () => {
  it.each([false, true])(
    'passes with no failure and no warning (--expect-unique-ids: %s), its skus judged',
    async (expectUniqueIds) => {
      const report = await verifyParts(undefined, expectUniqueIds);
      expect(
        report.checks.filter((c) => c.status === 'failed' || c.status === 'warned').map((c) => c.id),
        summary(report),
      ).toEqual([]);
      expect(report.ok).toBe(true);
      // The scenarios that need never-used skus ran: repeats, the lifecycle (delete, then the same sku again).
      // (With the model's creates too, the store outgrows the list's 100-item page, and created-item-listed cannot judge a partial list.)
      const lifecycle = [
        'deleted-id-reusable',
        'ensure-resource-availability',
        'deleted-item-gone',
        ...(expectUniqueIds ? [] : ['created-item-listed' as const]),
      ] as const;
      for (const id of ['duplicate-ids', ...lifecycle] as const) {
        expect(judged(report, id), `${id} judged nothing`).toBeGreaterThan(0);
      }
      if (expectUniqueIds) expect(judged(report, 'stateful-model'), 'stateful-model judged nothing').toBeGreaterThan(0);
      // No part of the plan was left out for want of fresh skus.
      expect(report.coverage.filter((entry) => entry.skipped?.includes('sku') === true)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('faulty servers of string-keyed parts are caught', () => {
  // Caught by the boundary sku "0", refused and then refused again under a never-used sku. That sku
  // is 16 random characters of [a-z0-9], so about one run in 180 draws one without a digit, which
  // this server takes, and only warnings are left (seen once in CI). One more run, with fresh draws.
  it(`${PARTS_FAULTS['digit-sku-refused']}: positive-acceptance`, { retry: 1, timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await verifyParts('digit-sku-refused');
    const result = report.checks.find((c) => c.id === 'positive-acceptance');
    expect(result?.status, summary(report)).toBe('failed');
    // Caught for the right reason: a sku drawn never-used was refused (not a short literal one, which may be held).
    const messages = result?.findings.filter((f) => f.severity === 'failure').map((f) => f.message) ?? [];
    expect(
      messages.some((message) => /never-used id|no earlier request used|probing which ids/.test(message)),
      messages.join('\n'),
    ).toBe(true);
  });

  it(
    `${PARTS_FAULTS['taken-sku-accepted']}: duplicate-ids with --expect-unique-ids`,
    async () => {
      const report = await verifyParts('taken-sku-accepted', true);
      const result = report.checks.find((c) => c.id === 'duplicate-ids');
      expect(result?.status, summary(report)).toBe('failed');
      expect(result?.findings.find((f) => f.severity === 'failure')?.message).toMatch(/already stored was accepted again/);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a sku no never-used value can be drawn for', () => {
  it.each([
    ['^[A-Z]{3}$', /pattern .* too few different values/],
    ['^[A-Za-z0-9_~-]{1,6}$', /too few different values/],
  ])('pattern %s: the plan leaves out the scenarios that need one, and says why', async (pattern, reason) => {
    const folder = await mkdtemp(join(tmpdir(), 'plantstore-strings-'));
    try {
      const spec = join(folder, 'parts.yaml');
      await writeFile(
        spec,
        (await readFile(SPEC, 'utf8')).replace("pattern: '^[A-Za-z0-9_~-]+$'", () => `pattern: '${pattern}'`),
      );
      const report = await verify({ target: 'http://127.0.0.1:9', spec, runs: 30, seed: SEED, dryRun: true });
      const create = report.plan?.find((entry) => entry.operation.startsWith('createPart'));
      expect(create?.properties.map((p) => p.name)).not.toContain('createPart/duplicate');
      expect(create?.properties.some((p) => p.name.includes('lifecycle'))).toBe(false);
      expect(create?.skipped.map((skip) => skip.reason).join('\n')).toMatch(reason);
      // Only where something was left out: a list or read of parts never had these scenarios.
      expect(report.plan?.find((entry) => entry.operation.startsWith('listParts'))?.skipped).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('with a pattern whose draws are varied, nothing is left out', async () => {
    const report = await verify({ target: 'http://127.0.0.1:9', spec: SPEC, runs: 30, seed: SEED, dryRun: true });
    const create = report.plan?.find((entry) => entry.operation.startsWith('createPart'));
    expect(create?.properties.map((p) => p.name)).toContain('createPart/duplicate');
    expect(create?.skipped ?? []).toEqual([]);
  });
});

describe('a sku no never-used value can be drawn for, against a correct server', () => {
  it('raises no false alarm: a short literal sku refused as taken is told by the fingerprint learnt from a repeat of one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plantstore-strings-'));
    const ambiguous = fileURLToPath(new URL('../fixtures/documents/ambiguous.yaml', import.meta.url));
    const spec = join(folder, 'ambiguous.yaml');
    await writeFile(
      spec,
      (await readFile(ambiguous, 'utf8')).replace('sku: { type: string }', () => 'sku: { type: string, maxLength: 2 }'),
    );
    const server = await startServer({ spec, port: 0 });
    try {
      const report = await verify({ target: server.url, spec, runs: 30, seed: SEED, timeoutMs: 5_000 });
      const failures = report.checks.filter((c) => c.status === 'failed');
      expect(
        failures.map((c) => c.id),
        summary(report),
      ).toEqual([]);
      expect(report.coverage.some((entry) => entry.skipped?.includes('maxLength 2') === true)).toBe(true);
    } finally {
      await server.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
