/**
 * An API whose replace carries the whole item, id included, and refuses a body id that is not the
 * path's (Microsoft's ASP.NET Core tutorial, test/fixtures/documents/todo-items.yaml). verify sends
 * such a PUT with the path's own id: a correct server of that shape passes with no failure and no
 * warning (serve of the document: serve-conforms.test.ts); one that takes an out-of-range body id there is caught.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startTodoServer } from './faulty-servers/todo-items-server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/todo-items.yaml', import.meta.url));
const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_127);

async function verifyAt(target: { readonly url: string; close(): Promise<void> }): Promise<VerifyReport> {
  try {
    return await verify({ target: target.url, spec: SPEC, runs: 40, seed: SEED, timeoutMs: 5_000 });
  } finally {
    await target.close();
  }
}

const flagged = (report: VerifyReport) =>
  report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message ?? ''}`);

describe('a replace that names its item in the path and the body', () => {
  it('a correct server passes: no probe sends a body id that is not the path’s', async () => {
    const report = await verifyAt(await startTodoServer());
    expect(flagged(report)).toEqual([]);
    expect(report.checks.find((check) => check.id === 'negative-rejection')?.status).toBe('passed');
  }, 120_000);

  it('a server that takes an out-of-range body id on PUT is caught: the invalid id is sent as drawn, not as the path’s', async () => {
    const report = await verifyAt(await startTodoServer('put-id-unchecked'));
    const rejection = report.checks.find((check) => check.id === 'negative-rejection');
    expect(rejection?.status).toBe('failed');
    expect(rejection?.findings.map((finding) => finding.message).join('\n')).toMatch(/property 'id' is (above|below) the int64/);
  }, 120_000);
});
