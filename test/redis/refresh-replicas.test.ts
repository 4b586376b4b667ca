/**
 * Refresh tokens behind a load balancer (docs/sign-in.md, "A refresh token renews a session"): two
 * replicas of one Redis. A refresh token one replica issued is traded on the other, once; the new
 * bearer works on both; Redis holds the refresh tokens' digests only, never a token in clear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, type Reply } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const SPEC = new URL('../fixtures/documents/refresh-first-sign-in.yaml', import.meta.url).pathname;
const JSON_TYPE = { 'content-type': 'application/json' };
const post = (url: string, body: unknown): Promise<Reply> => send(url, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
const me = (url: string, token: string): Promise<Reply> => send(`${url}/me`, { headers: { authorization: `Bearer ${token}` } });

describe('refresh tokens on two replicas of one Redis', { timeout: 60_000 }, () => {
  let redis: TestRedis;
  let replicas: RunningServer[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([0, 1].map(() => startServer({ spec: SPEC, port: 0, store: redis.url, requestTimeoutMs: 8000, logLevel: 'error' })));
  }, 30_000);

  afterAll(async () => {
    await Promise.all(replicas.map((server) => server?.close()));
    await redis?.stop();
  });

  it('is traded once on any replica; the new bearer works on every one; Redis keeps no token in clear', async () => {
    const [first, second] = replicas.map((replica) => replica.url) as [string, string];
    const signedUp = await post(`${first}/users`, { username: 'ada', email: 'ada@example.com', password: 'correct horse battery' });
    expect(signedUp.status, signedUp.text).toBe(201);
    const issued = signedUp.json as { token: string; refresh_token: string };
    const renewed = await post(`${second}/refresh`, { refresh_token: issued.refresh_token });
    expect(renewed.status, renewed.text).toBe(200);
    const next = renewed.json as { token: string; refresh_token: string };
    expect((await me(first, next.token)).status).toBe(200);
    expect((await me(second, next.token)).status).toBe(200);
    // Used up on one replica: refused on the other; and never a bearer.
    expect((await post(`${first}/refresh`, { refresh_token: issued.refresh_token })).status).toBe(401);
    expect((await me(first, next.refresh_token)).status).toBe(401);
    // Sent at once to both replicas, one refresh token gives one session (one script in Redis finds and uses it up).
    const both = await Promise.all([first, second].map((url) => post(`${url}/refresh`, { refresh_token: next.refresh_token })));
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 401]);

    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('*');
      expect(keys.some((key) => key.includes(':refresh:{issued-tokens}:t:'))).toBe(true);
      const values = await Promise.all(keys.map(async (key) => ((await client.type(key)) === 'string' ? ((await client.get(key)) ?? '') : '')));
      for (const secret of [issued.token, issued.refresh_token, next.token, next.refresh_token]) {
        expect([...keys, ...values].filter((text) => text.includes(secret))).toEqual([]);
      }
    } finally {
      client.disconnect();
    }
  });
});
