/**
 * An answer that carries a refresh token before the bearer token (sorted keys: refresh_token <
 * token). verify signs in with the bearer, never the refresh token, and shows neither in a report;
 * serve puts the token it honours where the document's bearer is, not in the first token-like
 * property. Before, verify took the first token-like property it met: against a correct server
 * every secured case was refused 401 and reported.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { verify } from '../../contracts/index.js';
import type { VerifyOptions, VerifyReport } from '../../contracts/report.js';
import { assertExpectation, replay, type Expectation, type Step } from '../../contracts/reporters/regression-runtime.js';
import { emitRegressions } from '../../contracts/reporters/regressions.js';
import { startServer } from '../../src/index.js';
import { startRefreshFirstServer, type RefreshFirstFault } from './faulty-servers/refresh-first-server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/refresh-first-sign-in.yaml', import.meta.url));

describe('a refresh token written before the bearer', () => {
  it('verify signs in with the bearer: a correct server passes, and no token it issued is in the report', { timeout: 120_000 }, async () => {
    const server = await startRefreshFirstServer();
    try {
      const report = await verify({ target: server.url, spec: SPEC, runs: 40, seed: 20_261_128, timeoutMs: 5_000 });
      const problems = report.checks
        .filter((check) => check.status === 'failed' || check.status === 'warned')
        .map((check) => `${check.id}: ${check.findings[0]?.message ?? ''} → ${check.findings[0]?.actual ?? ''}`);
      expect(problems).toEqual([]);
      // Signed in by evidence, the run knows the target checks credentials: its refusals of drawn refresh tokens were judged, not skipped.
      const refreshJudged = report.coverage.filter((row) => row.operation.startsWith('refreshSession') && row.check === 'auth-enforced');
      expect(refreshJudged.reduce((sum, row) => sum + row.cases, 0)).toBeGreaterThan(0);
      // The secured create was reached with the token the run was issued.
      expect(server.notes()).toBeGreaterThan(0);
      const written = JSON.stringify(report);
      expect(server.issued().filter((token) => written.includes(token))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("a finding that shows a sign-up's answer masks its tokens as the journal does, never in clear", { timeout: 120_000 }, async () => {
    const server = await startRefreshFirstServer('answer-breaks-schema');
    try {
      const report = await verify({ target: server.url, spec: SPEC, runs: 10, seed: 20_261_128, timeoutMs: 5_000 });
      const written = JSON.stringify(report);
      expect(report.checks.find((check) => check.id === 'response-schema-conformance')?.status).toBe('failed');
      expect(written).toContain('"refresh_token\\":\\"***\\"');
      expect(server.issued().filter((token) => written.includes(token))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('serve answers the bearer it honours as the token, and refuses the refresh token as a bearer', async () => {
    const server = await startServer({ spec: SPEC, port: 0 });
    try {
      const signedUp = await request(`${server.url}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: 'correct horse' }),
      });
      expect(signedUp.statusCode).toBe(201);
      const answer = (await signedUp.body.json()) as { token: string; refresh_token: string };
      expect(Object.keys(answer).indexOf('refresh_token')).toBeLessThan(Object.keys(answer).indexOf('token'));
      const me = async (token: string) => {
        const read = await request(`${server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
        await read.body.text();
        return read.statusCode;
      };
      expect(await me(answer.token)).toBe(200);
      expect(await me(answer.refresh_token)).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('serve trades a refresh token once for a new session, whose token works; a drawn or used one is refused', async () => {
    const server = await startServer({ spec: SPEC, port: 0 });
    try {
      const post = async (path: string, body: unknown) => {
        const answer = await request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: answer.statusCode, body: (await answer.body.json()) as { token: string; refresh_token: string; username: string } };
      };
      const me = async (token: string) => {
        const read = await request(`${server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
        await read.body.text();
        return read.statusCode;
      };
      const signedUp = await post('/users', { username: 'grace', email: 'grace@example.com', password: 'correct horse' });
      expect(signedUp.status).toBe(201);
      const renewed = await post('/refresh', { refresh_token: signedUp.body.refresh_token });
      expect(renewed.status).toBe(200);
      expect(renewed.body.username).toBe('grace');
      expect(renewed.body.token).not.toBe(signedUp.body.token);
      expect(renewed.body.refresh_token).not.toBe(signedUp.body.refresh_token);
      expect(await me(renewed.body.token)).toBe(200);
      // Used up: the same refresh token again, and one nobody was issued, are refused; neither is a bearer.
      expect((await post('/refresh', { refresh_token: signedUp.body.refresh_token })).status).toBe(401);
      expect((await post('/refresh', { refresh_token: 'never-issued' })).status).toBe(401);
      expect(await me(renewed.body.refresh_token)).toBe(401);
      // Sent twice at once, one refresh token gives one session: found and used up in one step.
      const twice = await Promise.all([0, 1].map(() => post('/refresh', { refresh_token: renewed.body.refresh_token })));
      expect(twice.map((answer) => answer.status).sort()).toEqual([200, 401]);
    } finally {
      await server.close();
    }
  });

  it(
    'verify fails a target that trades a refresh token it never issued for a session (auth-enforced); its regression file and --replay show it again',
    { timeout: 120_000 },
    async () => {
      const base: Omit<VerifyOptions, 'target'> = { spec: SPEC, runs: 40, seed: 20_261_128, timeoutMs: 5_000 };
      const server = await startRefreshFirstServer('honours-any-refresh-token');
      const dir = await mkdtemp(join(tmpdir(), 'plantstore-refresh-regressions-'));
      try {
        const report = await verify({ ...base, target: server.url });
        const auth = report.checks.find((check) => check.id === 'auth-enforced');
        expect(auth?.status).toBe('failed');
        const finding = auth?.findings.find((f) =>
          f.message.includes('a refresh token this run drew, which the target never issued, was traded for a session (2xx)'),
        );
        expect(finding, `auth-enforced said: ${auth?.findings.map((f) => f.message).join('; ')}`).toBeDefined();
        if (finding === undefined) return;
        expect(finding.request.url).toMatch(/\/refresh$/);
        expect(finding.expectation).toEqual({ kind: 'not-status-class', classes: [2] });
        // Said once, by the check that judges credentials: no other check blames the answer (its new refresh token is no failed echo).
        expect(report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => check.id)).toEqual(['auth-enforced']);
        // The session it was given is the target's: its tokens read *** in the report.
        const written = JSON.stringify(report);
        expect(server.issued().filter((token) => written.includes(token))).toEqual([]);

        // The regression file sends the same drawn refresh token: a new faulty target trades it, a correct one refuses it.
        const file = (await emitRegressions(report, dir)).find((f) => f.finding === finding);
        expect(file, 'no regression file for the finding').toBeDefined();
        const data = dataOf(await readFile(file?.path ?? '', 'utf8'));
        expect(data.expectation).toEqual({ kind: 'not-status-class', classes: [2] });
        const failure = await replayAgainst('honours-any-refresh-token', data);
        expect((failure as Error | undefined)?.name, `the regression did not fail against the faulty target: ${String(failure)}`).toBe('AssertionError');
        expect(await replayAgainst(undefined, data), 'the regression failed against a correct target').toBeUndefined();

        // --replay of the finding's case: failed again on a new faulty target, passed on a correct one.
        const replayOn = async (fault: RefreshFirstFault | undefined): Promise<VerifyReport> => {
          const fresh = await startRefreshFirstServer(fault);
          try {
            return await verify({ ...base, target: fresh.url, seed: finding.seed, replay: finding.path ?? '' });
          } finally {
            await fresh.close();
          }
        };
        const again = (await replayOn('honours-any-refresh-token')).checks.find((check) => check.id === 'auth-enforced');
        expect(again?.status).toBe('failed');
        expect(again?.findings[0]?.message).toContain('was traded for a session (2xx)');
        const onCorrect = await replayOn(undefined);
        expect(onCorrect.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => check.id)).toEqual([]);
      } finally {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    'a target never shown to check credentials is not blamed: given a token and no --tokens-validated, the refresh is not judged',
    { timeout: 120_000 },
    async () => {
      const server = await startRefreshFirstServer('honours-any-refresh-token');
      try {
        // A token of its own (not signed in by evidence), not said to be checked: whether the target validates credentials is unknown.
        const report = await verify({ target: server.url, spec: SPEC, token: 'some-token', runs: 10, seed: 20_261_128, timeoutMs: 5_000 });
        const auth = report.checks.find((check) => check.id === 'auth-enforced');
        expect(auth?.findings.map((f) => f.message) ?? []).toEqual([]);
        // The coverage report says why, and how to have it judged (not "needs no credentials": a refresh token is one).
        const row = report.coverage.find((entry) => entry.operation.startsWith('refreshSession') && entry.check === 'auth-enforced');
        expect(row?.skipped).toMatch(/does not know the target checks credentials.*--tokens-validated/);
      } finally {
        await server.close();
      }
    },
  );
});

/** The data of an emitted regression file: its STEPS and EXPECTATION, as the runtime reads them. */
function dataOf(source: string): { steps: Step[]; expectation: Expectation } {
  const steps = /const STEPS: readonly Step\[\] = ([\s\S]*?);\n\nconst EXPECTATION/.exec(source)?.[1];
  const expectation = /const EXPECTATION: Expectation = ([\s\S]*?);\n\nregressionTest/.exec(source)?.[1];
  if (steps === undefined || expectation === undefined) throw new Error(`not a regression file:\n${source}`);
  return { steps: JSON.parse(steps) as Step[], expectation: JSON.parse(expectation) as Expectation };
}

/** Replays the file's steps against a new double; the assertion's error, or undefined when it held. */
async function replayAgainst(fault: RefreshFirstFault | undefined, data: { steps: Step[]; expectation: Expectation }): Promise<unknown> {
  const server = await startRefreshFirstServer(fault);
  try {
    const { answer, sent } = await replay(server.url, data.steps, false);
    assertExpectation(data.expectation, answer, sent);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await server.close();
  }
}
