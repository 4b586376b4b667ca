/**
 * A Redis that hangs (SIGSTOP: the connection stays open, nothing answers) must not hang requests:
 * each gets the store's 503 with Retry-After within the request timeout, nothing is stored behind
 * the answer, and the replica answers normally once Redis does again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const REQUEST_TIMEOUT_MS = 2000;
let redis: TestRedis;
let server: RunningServer;

beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ port: 0, store: redis.url, requestTimeoutMs: REQUEST_TIMEOUT_MS });
});

afterAll(async () => {
  redis?.resume();
  await server?.close();
  await redis?.stop();
});

it('answers 503 + Retry-After within the request timeout while Redis hangs, and recovers', async () => {
  const create = (id: number) => send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: `{"name":"Fern","id":${id}}` });
  expect((await create(1)).status).toBe(200);
  redis.pause();
  try {
    const started = Date.now();
    const answers = await Promise.all([create(2), create(3)]);
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
    }
  } finally {
    redis.resume();
  }
  // Back: 2 was not stored behind its 503 only if its script never ran; either way the store answers again.
  await expect.poll(async () => (await create(4)).status, { timeout: 10_000, interval: 100 }).toBe(200);
  expect((await create(1)).status).toBe(400);
});
