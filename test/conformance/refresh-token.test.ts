/**
 * An answer that carries a refresh token before the bearer token (sorted keys: refresh_token <
 * token). verify signs in with the bearer, never the refresh token, and shows neither in a report;
 * serve puts the token it honours where the document's bearer is, not in the first token-like
 * property. Before, verify took the first token-like property it met: against a correct server
 * every secured case was refused 401 and reported.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';
import { startRefreshFirstServer } from './faulty-servers/refresh-first-server.js';

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
    } finally {
      await server.close();
    }
  });
});
