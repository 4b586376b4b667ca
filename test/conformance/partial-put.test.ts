/**
 * verify reads a PUT as serve does (core/conformance/replace-kind.ts): against the folders and notes
 * of partial-put.yaml, a correct server (a folder's PUT updates what it sends, a note's replaces) is
 * not flagged, and each way of getting it wrong is caught: a folder's PUT that loses what it did not
 * send (stored-content-shown: a read no longer shows what the create sent), a note's PUT that keeps it
 * (response-reflects-request: the answer has a body that was not sent).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startPartialPutServer, type PartialPutFault } from './faulty-servers/partial-put-server.js';

const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 1);
const SPEC = fileURLToPath(new URL('../resources/documents/partial-put.yaml', import.meta.url));
// The checks that judge what a change keeps; the double validates little else.
const CHECKS = ['update-applied', 'response-reflects-request', 'stored-content-shown'];

const flagged = (report: VerifyReport) =>
  report.checks
    .filter((check) => check.status === 'failed' || check.status === 'warned')
    .map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`);

async function verifyAt(fault?: PartialPutFault): Promise<VerifyReport> {
  const server = await startPartialPutServer(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: SEED, stateful: true, timeoutMs: 5_000, checks: CHECKS });
  } finally {
    await server.close();
  }
}

describe('a PUT that updates only what it sends, and one that replaces', () => {
  it('a correct server passes: the folder keeps what a PUT did not send, the note does not', async () => {
    const report = await verifyAt();
    expect(flagged(report)).toEqual([]);
    expect(report.checks.find((check) => check.id === 'update-applied')?.cases).toBeGreaterThan(0);
  }, 120_000);

  it("a folder's PUT that loses what it did not send is caught", async () => {
    const report = await verifyAt('folder-put-replaces');
    // What the create sent and the PUT did not is no longer shown by a read.
    const check = report.checks.find((c) => c.id === 'stored-content-shown');
    expect(check?.status).toBe('failed');
    expect(check?.findings.map((finding) => finding.message).join('\n')).toMatch(/does not show what was sent.*folders/);
  }, 120_000);

  it("a note's PUT that keeps what it did not send is caught", async () => {
    const report = await verifyAt('note-put-merges');
    const check = report.checks.find((c) => c.id === 'response-reflects-request');
    expect(check?.status).toBe('failed');
    expect(check?.findings.map((finding) => finding.message).join('\n')).toMatch(/body that was not sent/);
  }, 120_000);
});
