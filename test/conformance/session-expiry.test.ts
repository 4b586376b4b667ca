/**
 * verify keeps its own session alive: against `plantstore serve --token-lifetime 1` of the notes
 * document (its answers say `expires_in`), a run longer than a second renews its token before it
 * expires (contracts/runner/session-keeper.ts) and reports nothing. Before, every case after the
 * first second was a false 401 ("the session has ended: this token expired").
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';

const NOTES = fileURLToPath(new URL('../fixtures/documents/notes-sign-in.yaml', import.meta.url));

describe('a session that expires during the run', () => {
  it('is renewed before it expires: nothing is reported', { timeout: 180_000 }, async () => {
    const server = await startServer({ spec: NOTES, port: 0, tokenLifetime: 1 });
    try {
      // Runs enough to outlast the one-second token on a fast machine too: 60 took 1.3 s and 200 took 2.3 s on a quiet one (28 Nov 2026).
      const report = await verify({ target: server.url, spec: NOTES, runs: 400, seed: 20_261_123, timeoutMs: 5_000 });
      const problems = report.checks
        .filter((check) => check.status === 'failed' || check.status === 'warned')
        .map((check) => `${check.id}: ${check.findings[0]?.message ?? ''} → ${check.findings[0]?.actual ?? ''}`);
      // Long enough for the token to expire (a second) several times over: otherwise this proves nothing.
      expect(report.durationMs).toBeGreaterThan(2_000);
      expect(problems).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await server.close();
    }
  });
});
