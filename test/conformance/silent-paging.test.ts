/**
 * A list that declares `limit` with neither a default nor a maximum, on a server that answers a page
 * of its own when sent none (Gitea: 30) and holds more than that before the run (a shared staging
 * server). verify's whole-list reads send no limit there; judged complete, a page of the first 30
 * falsely failed created-item-listed (the run's own items were on the next page). Now such a list is
 * whole only when it holds fewer than UNDECLARED_PAGE items (contracts/runner/lifecycle/steps.ts),
 * and a list that hides what the run created is still caught.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startResourceServer, type ResourceFault, type ResourceShape } from './faulty-servers/resource-servers.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/plant-store-unbounded-limit.yaml', import.meta.url));
const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_128);

async function verifyAt(fault: ResourceFault | undefined, shape: ResourceShape): Promise<VerifyReport> {
  const target = await startResourceServer('plants', fault, shape);
  try {
    return await verify({ target: target.url, spec: SPEC, token: 'staging-token', runs: 30, seed: SEED, timeoutMs: 5_000 });
  } finally {
    await target.close();
  }
}

const flagged = (report: VerifyReport) =>
  report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message ?? ''}`);

describe('a list that pages by itself when sent no limit', () => {
  it('a correct server of that shape, holding more than its page, passes', async () => {
    const report = await verifyAt(undefined, { unaskedPage: 30, preload: 40 });
    expect(flagged(report)).toEqual([]);
  }, 120_000);

  it('a server whose lists hide what the run created is still caught', async () => {
    const report = await verifyAt('list-hides-creates', { unaskedPage: 30 });
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.status).toBe('failed');
  }, 120_000);
});
