/**
 * One email, one user, whichever replica a sign-up reaches (src/handlers/sign-in/claims.ts): three
 * replicas on one Redis each took the same sign-up when a dozen arrived at once (every round of
 * five, before the claims). An email a user changed away from is free again on every replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, type Reply } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const NOTES = new URL('../fixtures/documents/notes-sign-in.yaml', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
const JSON_TYPE = { 'content-type': 'application/json' };

const signUp = (url: string, username: string, email: string): Promise<Reply> =>
  send(`${url}/users`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username, email, password: PASSWORD }) });

describe('sign-ups on three replicas of one Redis', { timeout: 60_000 }, () => {
  let redis: TestRedis;
  let replicas: RunningServer[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    // 8 s, as sessions.test.ts: a Redis command may take a quarter of it, and at 4 s a loaded machine
    // (two helpers' test runs beside this one) once stalled one past it, a 503 where a 201 was due.
    replicas = await Promise.all([0, 1, 2].map(() => startServer({ spec: NOTES, port: 0, store: redis.url, requestTimeoutMs: 8000, logLevel: 'error' })));
  }, 30_000);

  afterAll(async () => {
    await Promise.all(replicas.map((server) => server.close()));
    await redis?.stop();
  });

  it('a dozen at once with one email, spread over the replicas: one user, every other one refused as taken', async () => {
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => signUp((replicas[i % 3] as RunningServer).url, `r${round}-${i}`, `same-${round}@example.com`)),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(
        statuses.filter((status) => status === 201),
        statuses.join(','),
      ).toHaveLength(1);
      expect(
        statuses.filter((status) => status !== 201).every((status) => status === 409),
        statuses.join(','),
      ).toBe(true);
    }
  });

  it('an email given up by a change is free again on another replica; the new one is taken', async () => {
    const [first, second, third] = replicas.map((replica) => replica.url) as [string, string, string];
    const created = await signUp(first, 'mover', 'old@example.com');
    expect(created.status, created.text).toBe(201);
    const token = (created.json as { token: string }).token;
    const moved = await send(`${second}/me`, {
      method: 'PUT',
      headers: { ...JSON_TYPE, authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: 'new@example.com' }),
    });
    expect(moved.status, moved.text).toBe(200);
    const taken = await signUp(third, 'taker', 'new@example.com');
    expect(taken.status, taken.text).toBe(409);
    const freed = await signUp(third, 'taker', 'old@example.com');
    expect(freed.status, freed.text).toBe(201);
  });
});
