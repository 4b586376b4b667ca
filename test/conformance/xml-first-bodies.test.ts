/**
 * An answer is held to saying back what was sent by its JSON bodies (core's jsonSchemaOf and
 * jsonRequestBody), not by whichever media type the document declares first: a create whose request
 * body and answer declare application/xml first (test/fixtures/documents/xml-first-bodies.yaml).
 * Read by its XML answer, whose elements are PascalCase, response-reflects-request looked for the
 * text sent as `Text` in the JSON answer; read by its XML body, which declares no default for
 * pinned, it took the JSON default a correct server fills in for an unasked `pinned`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startXmlFirstBodiesServer, type XmlFirstBodiesFault } from './faulty-servers/xml-first-bodies-server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/xml-first-bodies.yaml', import.meta.url));

async function verifyAt(fault?: XmlFirstBodiesFault): Promise<VerifyReport> {
  const server = await startXmlFirstBodiesServer(fault);
  try {
    return await verify({ target: server.url, spec: SPEC, runs: 20, seed: 1, stateful: true, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

const reflects = (report: VerifyReport) => report.checks.find((check) => check.id === 'response-reflects-request');

describe('bodies whose first media type is XML', () => {
  it('a correct JSON server passes, its answers judged by the JSON bodies', { timeout: 120_000 }, async () => {
    const report = await verifyAt();
    const flagged = report.checks.filter((check) => check.status !== 'passed' && check.status !== 'skipped');
    expect(flagged.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
    expect(reflects(report)?.cases).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('a server that does not say back the text sent is caught', { timeout: 120_000 }, async () => {
    const report = await verifyAt('trims-text');
    expect(reflects(report)?.status).toBe('failed');
    expect(
      reflects(report)
        ?.findings.map((finding) => finding.message)
        .join(' | '),
    ).toContain('text that was sent');
  });
});
