/**
 * APIs whose state the schema cannot show, judged by evidence: a Conduit-style API (envelopes,
 * sign-up and log-in issuing a token, a sign-out that ends the session of the token it carries,
 * server-made slugs) passes with no failure and no warning.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { CONDUIT_FAULTS, startConduitServer, type ConduitFault } from './faulty-servers/conduit-server.js';

const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_123);
const CONDUIT = fileURLToPath(new URL('../fixtures/documents/conduit.yaml', import.meta.url));

function summary(report: VerifyReport): string {
  const lines = report.checks
    .filter((check) => check.status !== 'passed')
    .map((check) => `${check.id}: ${check.status}${check.findings.map((f) => `\n  — ${f.message} [${f.count}]`).join('')}`);
  return lines.length === 0 ? 'every check passed' : lines.join('\n');
}

async function verifyConduit(fault?: ConduitFault): Promise<{ report: VerifyReport; articles: number; signedOut: number; tokens: readonly string[] }> {
  const server = await startConduitServer(fault);
  try {
    const report = await verify({ target: server.url, spec: CONDUIT, runs: 40, seed: SEED, timeoutMs: 5_000 });
    return { report, ...server.seen() };
  } finally {
    await server.close();
  }
}

describe('a Conduit-style API (envelopes, sign-up and log-in, server-made slugs)', () => {
  it('a correct one passes with no failure and no warning, its secured operations reached with the token it issued', async () => {
    const { report, articles, signedOut, tokens } = await verifyConduit();
    expect(
      report.checks.filter((c) => c.status === 'failed' || c.status === 'warned').map((c) => c.id),
      summary(report),
    ).toEqual([]);
    expect(report.ok).toBe(true);
    // articlesCount, the list's total, was held to the articles the run created.
    expect(report.checks.find((c) => c.id === 'list-total-counted')?.cases ?? 0, 'list-total-counted judged nothing').toBeGreaterThan(0);
    // The secured create was reached: the run signed up, logged in and used the token it was issued.
    expect(articles).toBeGreaterThan(0);
    // Its sign-out was tested too, each time ending a session of its own, not the run's (docs/verify.md).
    expect(signedOut).toBeGreaterThan(0);
    const written = JSON.stringify(report);
    expect(tokens.filter((token) => written.includes(token))).toEqual([]);
  }, 120_000);

  it('a list whose articlesCount counts only its page is caught', async () => {
    const { report } = await verifyConduit('count-is-page');
    const check = report.checks.find((c) => c.id === 'list-total-counted');
    expect(check?.status, `${CONDUIT_FAULTS['count-is-page']}\n${summary(report)}`).toBe('failed');
    expect(check?.findings[0]?.message).toMatch(/total \(articlesCount \d+\) is less than the \d+ item\(s\)/);
  }, 120_000);

  it('given a token of its own (--token), never sends a sign-out with it: the session the later cases need stays', async () => {
    const server = await startConduitServer();
    try {
      const signedUp = await fetch(`${server.url}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { username: 'given', email: 'given@example.com', password: 'a long password' } }),
      });
      const { token } = ((await signedUp.json()) as { user: { token: string } }).user;
      const report = await verify({ target: server.url, spec: CONDUIT, token, runs: 40, seed: SEED, timeoutMs: 5_000 });
      expect(
        report.checks.filter((c) => c.status === 'failed' || c.status === 'warned').map((c) => c.id),
        summary(report),
      ).toEqual([]);
      expect(server.seen().signedOut).toBe(0);
      expect(server.seen().articles).toBeGreaterThan(0);
      expect(JSON.stringify(report)).not.toContain(token);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a log-in that refuses the very user just signed up is caught', async () => {
    const { report } = await verifyConduit('log-in-refuses-everyone');
    const finding = report.checks.find((c) => c.id === 'positive-acceptance')?.findings[0];
    expect(finding?.message, `${CONDUIT_FAULTS['log-in-refuses-everyone']}\n${summary(report)}`).toMatch(/log in \(logIn\) as the user signed up just before/);
  }, 120_000);
});
