/**
 * A nested collection's writes go under a parent the run made (contracts/runner/owned-items.ts),
 * the id probe included (contracts/runner/evidence.ts): DigitalOcean's shape, cut small
 * (clusters-users.yaml). A correct server answers a user added under an unknown cluster with 404;
 * the probe had posted under a drawn cluster uuid and blamed the server for that 404
 * (positive-acceptance, "probing which ids the target takes").
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startClustersServer, type ClustersFault } from './faulty-servers/clusters-server.js';

const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 1);
const SPEC = fileURLToPath(new URL('../fixtures/documents/clusters-users.yaml', import.meta.url));

const flagged = (report: VerifyReport) =>
  report.checks
    .filter((check) => check.status === 'failed' || check.status === 'warned')
    .map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`);

async function verifyAt(fault?: ClustersFault): Promise<VerifyReport> {
  const server = await startClustersServer(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: SEED, stateful: true, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

describe('a nested collection whose parent must exist', () => {
  it('a correct server passes: the probe and every write go under a cluster the run created', async () => {
    const report = await verifyAt();
    expect(flagged(report)).toEqual([]);
    expect(report.ok).toBe(true);
    // The probe was sent, and learnt how a taken name is refused: the duplicates were judged.
    expect(report.checks.find((check) => check.id === 'duplicate-ids')?.cases).toBeGreaterThan(0);
  }, 120_000);

  it('a server that refuses every user under a cluster that exists is still caught', async () => {
    const report = await verifyAt('add-user-refused');
    const acceptance = report.checks.find((check) => check.id === 'positive-acceptance');
    expect(acceptance?.status).toBe('failed');
    expect(acceptance?.findings.map((finding) => finding.message).join('\n')).toMatch(/databases_add_user/);
  }, 120_000);
});
