/**
 * Shapes of DigitalOcean's document a correct server has, cut small (digitalocean-cuts.yaml), each a
 * false alarm verify raised against `serve` of the whole document:
 *   - a nested collection's writes go under a parent the run made (contracts/runner/owned-items.ts),
 *     the id probe included (contracts/runner/evidence.ts): the probe had posted a user under a drawn
 *     cluster uuid and blamed the server's 404 (positive-acceptance, "probing which ids the target takes");
 *   - an update's answer that names the path's item is no property "added" (response-reflects-request);
 *   - a list whose items show the id under another name than the create's answer is not held to
 *     showing the item by that id (created-item-listed; contracts/runner/lifecycle/steps.ts markingOf);
 *   - ids the create gives that the item path refuses (a region's slug where the path takes an IPv6
 *     address) are not sent there as valid requests (contracts/runner/path-fit.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startDigitalOceanCuts, type DigitalOceanFault } from './faulty-servers/digitalocean-cuts-server.js';

const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 1);
const SPEC = fileURLToPath(new URL('../fixtures/documents/digitalocean-cuts.yaml', import.meta.url));

const flagged = (report: VerifyReport) =>
  report.checks
    .filter((check) => check.status === 'failed' || check.status === 'warned')
    .map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`);

async function verifyAt(fault?: DigitalOceanFault): Promise<VerifyReport> {
  const server = await startDigitalOceanCuts(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: SEED, stateful: true, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

describe('a nested collection whose parent must exist', () => {
  it('a correct server passes, with no failure and no warning', async () => {
    const report = await verifyAt();
    expect(flagged(report)).toEqual([]);
    expect(report.ok).toBe(true);
    // The probe was sent, and learnt how a taken name is refused: the duplicates were judged.
    expect(report.checks.find((check) => check.id === 'duplicate-ids')?.cases).toBeGreaterThan(0);
    // Lists are still judged where their items show the id (a cluster's users).
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.cases).toBeGreaterThan(0);
  }, 120_000);

  it('reserved IPv6 addresses are keyed by their ip, so their lifecycle is planned (path-fit.test: the plan says why where an id cannot fit)', async () => {
    const server = await startDigitalOceanCuts();
    try {
      const report = await verify({ target: server.url, spec: SPEC, runs: 5, seed: SEED, stateful: true, dryRun: true });
      const plans = (report.plan ?? []).filter((plan) => plan.operation.includes('reservedIPv6_'));
      expect(plans.length).toBeGreaterThan(0);
      expect(plans.flatMap((plan) => plan.skipped.map((skip) => skip.reason)).join('\n')).not.toMatch(/format ipv6/);
    } finally {
      await server.close();
    }
  });

  it('a server that refuses every user under a cluster that exists is still caught', async () => {
    const report = await verifyAt('add-user-refused');
    const acceptance = report.checks.find((check) => check.id === 'positive-acceptance');
    expect(acceptance?.status).toBe('failed');
    expect(acceptance?.findings.map((finding) => finding.message).join('\n')).toMatch(/databases_add_user/);
  }, 120_000);
});
