/**
 * CDN endpoints after DigitalOcean's shape (test/resources/documents/cdn-endpoints.yaml): answers
 * wrap the item in {"endpoint": {...}}, and the item has its own `endpoint`, a readOnly host the
 * server names. Two false alarms verify raised against a correct server of that shape
 * (faulty-servers/cdn-endpoints-server.ts):
 *   - its list's items, which have a text property named `endpoint`, were read as each wrapped in
 *     the envelope (a name compared, not the schema), so the list was held to showing the id it
 *     does not show (created-item-listed);
 *   - the marker that tells an item apart in a list was written into that readOnly `endpoint`,
 *     which the server answers its own way (contracts/runner/lifecycle/steps.ts markingOf).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startCdnEndpoints, type CdnFault } from './faulty-servers/cdn-endpoints-server.js';

const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 1);
const SPEC = fileURLToPath(new URL('../resources/documents/cdn-endpoints.yaml', import.meta.url));

const flagged = (report: VerifyReport) =>
  report.checks
    .filter((check) => check.status === 'failed' || check.status === 'warned')
    .map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`);

async function verifyAt(fault?: CdnFault): Promise<VerifyReport> {
  const server = await startCdnEndpoints(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: SEED, stateful: true, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

describe('an item with a readOnly property named as its envelope', () => {
  it('a correct server passes, its lists judged by a marker the client writes', async () => {
    const report = await verifyAt();
    expect(flagged(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.cases).toBeGreaterThan(0);
  }, 120_000);

  it('a server whose list leaves out the newest endpoint is still caught', async () => {
    const report = await verifyAt('list-drops-newest');
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.status).toBe('failed');
  }, 120_000);
});
