/**
 * A list is read by its JSON answer (core's jsonSuccessSchema), not by whichever media type its
 * document declares first: notes listed in XML first (with `id`) and in JSON with `note_id`
 * (test/fixtures/documents/xml-first-list.yaml). Read by its XML answer, the lifecycle looked for a
 * created note by `id` in the JSON list, and failed a correct server (created-item-listed).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startNotesServer, type NotesFault } from './faulty-servers/xml-first-server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/xml-first-list.yaml', import.meta.url));

async function verifyAt(fault?: NotesFault): Promise<VerifyReport> {
  const server = await startNotesServer(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: 1, stateful: true, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

const listed = (report: VerifyReport) => report.checks.find((check) => check.id === 'created-item-listed');

describe('a list whose first media type is XML', () => {
  it('a correct JSON server passes, its list judged by what the JSON list shows', { timeout: 120_000 }, async () => {
    const report = await verifyAt();
    const flagged = report.checks.filter((check) => check.status !== 'passed' && check.status !== 'skipped');
    expect(flagged.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
    expect(listed(report)?.cases).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('a server that leaves a created note out of its list is caught', { timeout: 120_000 }, async () => {
    const report = await verifyAt('unlisted');
    expect(listed(report)?.status).toBe('failed');
  });
});
