/**
 * A lifecycle finding's regression file (--emit-regressions) replays its whole minimal sequence,
 * with the created ids as variables (drawn fresh, or read from the create's answer), and asserts
 * what the check asserted of the list or read: it fails against the faulty server (a new one, so
 * nothing of the run that found it is left) and passes against a correct one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { CheckId, Finding, VerifyReport } from '../../contracts/report.js';
import { assertExpectation, replay, withIds, type Expectation, type Step } from '../../contracts/reporters/regression-runtime.js';
import { emitRegressions } from '../../contracts/reporters/regressions.js';
import { startResourceServer, type ResourceFault, type ResourceKind } from './faulty-servers/resource-servers.js';

// The files never hold the run's token: the runtime reads it from CONTRACT_TOKEN when it loads.
vi.hoisted(() => {
  process.env.CONTRACT_TOKEN = 'test-token';
});

const DOCUMENTS: Readonly<Record<ResourceKind, string>> = {
  plants: fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url)),
  pets: fileURLToPath(new URL('../fixtures/documents/petstore-expanded.yaml', import.meta.url)),
  crud: fileURLToPath(new URL('../fixtures/documents/pets-crud.yaml', import.meta.url)),
  optional: fileURLToPath(new URL('../fixtures/documents/optional-ids.yaml', import.meta.url)),
};

const CASES: ReadonlyArray<{ kind: ResourceKind; fault: ResourceFault; check: CheckId; kindOfExpectation: Expectation['kind'] }> = [
  { kind: 'plants', fault: 'delete-does-nothing', check: 'deleted-item-not-listed', kindOfExpectation: 'does-not-list' },
  { kind: 'pets', fault: 'list-hides-creates', check: 'created-item-listed', kindOfExpectation: 'lists' },
  { kind: 'crud', fault: 'update-ignored', check: 'update-applied', kindOfExpectation: 'shows' },
  { kind: 'plants', fault: 'limit-ignored', check: 'list-limit-respected', kindOfExpectation: 'at-most-items' },
  { kind: 'pets', fault: 'limit-ignored', check: 'list-limit-respected', kindOfExpectation: 'at-most-items' },
  // Ids the client may give or leave out: the file sends a given one again and reads an assigned one from the answer.
  { kind: 'optional', fault: 'list-hides-creates', check: 'created-item-listed', kindOfExpectation: 'lists' },
  { kind: 'optional', fault: 'total-counts-page', check: 'list-total-counted', kindOfExpectation: 'total-at-least' },
];

/** The data of an emitted file: its STEPS and EXPECTATION, as the runtime reads them. */
function dataOf(source: string): { steps: Step[]; expectation: Expectation } {
  const steps = /const STEPS: readonly Step\[\] = ([\s\S]*?);\n\nconst EXPECTATION/.exec(source)?.[1];
  const expectation = /const EXPECTATION: Expectation = ([\s\S]*?);\n\nregressionTest/.exec(source)?.[1];
  if (steps === undefined || expectation === undefined) throw new Error(`not a regression file:\n${source}`);
  return { steps: JSON.parse(steps) as Step[], expectation: JSON.parse(expectation) as Expectation };
}

/** Replays the file's steps against a new server of this kind; the assertion's error, or undefined when it held. */
async function replayAgainst(kind: ResourceKind, fault: ResourceFault | undefined, data: { steps: Step[]; expectation: Expectation }): Promise<unknown> {
  const server = await startResourceServer(kind, fault);
  try {
    const { answer, sent, ids } = await replay(server.url, data.steps, false);
    assertExpectation(withIds(data.expectation, ids), answer, sent);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await server.close();
  }
}

describe('a lifecycle finding emits a regression file that replays the whole sequence', () => {
  it.each(CASES.map((c) => ({ ...c, name: `${c.kind}: ${c.fault} → ${c.check}` })))(
    '$name',
    async ({ kind, fault, check, kindOfExpectation }) => {
      const server = await startResourceServer(kind, fault);
      const dir = await mkdtemp(join(tmpdir(), 'plantstore-lifecycle-regressions-'));
      try {
        const report = await verify({ target: server.url, spec: DOCUMENTS[kind], token: 'test-token', runs: 20, seed: 20_261_123, timeoutMs: 5_000 });
        const files = await emitRegressions(report, dir);
        // A lifecycle finding (a list answer can also fail for what other properties left in the target: that one has no steps before it).
        const file = files.find((f) => f.finding.check === check && (f.finding.before?.length ?? 0) > 0);
        expect(file, `no regression file for ${check}`).toBeDefined();
        const data = dataOf(await readFile(file?.path ?? '', 'utf8'));
        expect(data.expectation.kind).toBe(kindOfExpectation);
        // The whole sequence: the create(s) before the step that shows the fault, the created ids as variables.
        expect(data.steps.length).toBeGreaterThan(1);
        expect(data.steps.some((step) => step.defines !== undefined)).toBe(true);
        const failure = await replayAgainst(kind, fault, data);
        expect((failure as Error | undefined)?.name, `the regression did not fail its assertion against the faulty server: ${String(failure)}`).toBe(
          'AssertionError',
        );
        expect(await replayAgainst(kind, undefined, data), 'the regression failed against a correct server').toBeUndefined();
      } finally {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('list-limit-respected end to end: a list that ignores its limit', () => {
  it.each(['plants', 'pets'] as const)(
    '%s: the finding carries the creates that overfill the page, and --replay shows it on a fresh faulty server only',
    async (kind) => {
      const server = await startResourceServer(kind, 'limit-ignored');
      const base = { spec: DOCUMENTS[kind], token: 'test-token', runs: 20, seed: 20_261_123, timeoutMs: 5_000 };
      let finding: Finding | undefined;
      try {
        const report = await verify({ ...base, target: server.url });
        finding = report.checks.find((c) => c.id === 'list-limit-respected')?.findings.find((f) => (f.before?.length ?? 0) > 0);
      } finally {
        await server.close();
      }
      expect(finding, 'no lifecycle finding of list-limit-respected').toBeDefined();
      if (finding === undefined) return;
      expect(finding.shrunk).toBe(true);
      // Shrunk to what shows the fault by itself: two creates, then a list asking for one item.
      expect([...(finding.before ?? []), finding.request].map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
      expect(finding.expectation).toEqual({ kind: 'at-most-items', limit: '1' });

      const replayOn = async (fault: ResourceFault | undefined): Promise<VerifyReport> => {
        const fresh = await startResourceServer(kind, fault);
        try {
          return await verify({ ...base, target: fresh.url, seed: finding.seed, replay: finding.path ?? '' });
        } finally {
          await fresh.close();
        }
      };
      const again = await replayOn('limit-ignored');
      const status = (report: VerifyReport): string | undefined => report.checks.find((c) => c.id === 'list-limit-respected')?.status;
      expect(status(again)).toBe('failed');
      expect(again.checks.find((c) => c.id === 'list-limit-respected')?.findings[0]?.message).toMatch(/has [2-9] items though the request asked for at most 1/);
      const onCorrect = await replayOn(undefined);
      expect(status(onCorrect)).toBe('passed');
      expect(onCorrect.ok).toBe(true);
    },
    120_000,
  );
});
