/**
 * Sign-in behind a load balancer (issue 22, docs/sign-in.md): three replicas on one Redis honour
 * a token whichever of them issued it, /me answers its user on any of them, a made-up token is
 * refused by all; Redis keeps only the token's digest, and at most the bound of them. A log-out on
 * one replica, and a token's lifetime, end its session on all of them. A Redis that hangs gets a
 * token-bearing request the store's 503, never a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { createSharedIssuedTokens, issuedTokenKeys } from '../../src/auth/shared-issued-tokens.js';
import { ENDED_KEPT_MS } from '../../src/auth/issued-tokens.js';
import { connectRedis } from '../../src/store/redis/connection.js';
import { send, VALID_HEADERS, type Reply } from '../support/server.js';
import { monitorRedis } from './monitor.js';
import { startRedis, type TestRedis } from './redis-server.js';

const NOTES = new URL('../fixtures/documents/notes-sign-in.yaml', import.meta.url).pathname;
/** Bearer-secured, no sign-in. */
const PLANTS = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
/**
 * A Redis command may take a quarter of it (shared-state.ts): 2 s. At 2 s (500 ms a command) a
 * loaded CI machine once stalled a token lookup past it, and a made-up token got the store's 503;
 * at 4 s, two CPU burners beside this file and another Redis test stalled a sign-up's command.
 */
const REQUEST_TIMEOUT_MS = 8000;
const JSON_TYPE = { 'content-type': 'application/json' };

const post = (url: string, body: unknown, token?: string): Promise<Reply> =>
  send(url, {
    method: 'POST',
    headers: token === undefined ? JSON_TYPE : { ...JSON_TYPE, authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const get = (url: string, token: string): Promise<Reply> => send(url, { headers: { authorization: `Bearer ${token}` } });

/** Every key and every value Redis holds, whatever its type. */
async function everything(url: string): Promise<string[]> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url);
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'COUNT', '1000');
      cursor = next;
      for (const key of keys) {
        found.push(key);
        const type = await client.type(key);
        if (type === 'string') found.push((await client.get(key)) ?? '');
        else if (type === 'hash') found.push(...Object.entries(await client.hgetall(key)).flat());
        else if (type === 'list') found.push(...(await client.lrange(key, 0, -1)));
        else if (type === 'set') found.push(...(await client.smembers(key)));
        else if (type === 'zset') found.push(...(await client.zrange(key, '0', '-1')));
        else if (type === 'stream') found.push(JSON.stringify(await client.xrange(key, '-', '+')));
        else found.push(`unread ${type}`);
      }
    } while (cursor !== '0');
    return found;
  } finally {
    client.disconnect();
  }
}

/** The issued tokens' lookups Redis runs while `step` does (read with MONITOR). */
async function lookupsDuring(url: string, step: () => Promise<unknown>): Promise<number> {
  let seen = 0;
  // MONITOR reports commands in the order Redis ran them: once a marker sent after the step is seen, every lookup of the step has been.
  const marker = `lookups-marker-${process.pid}-${Date.now()}`;
  let markerSeen: () => void = () => {};
  const markerArrived = new Promise<void>((resolve) => (markerSeen = resolve));
  const monitor = await monitorRedis(url, ([name, key]) => {
    if (name === 'get' && key?.includes(':{issued-tokens}:t:')) seen += 1;
    if (name === 'echo' && key === marker) markerSeen();
  });
  const { Redis } = await import('ioredis');
  const probe = new Redis(url);
  try {
    await step();
    await probe.echo(marker);
    await markerArrived;
    return seen;
  } finally {
    probe.disconnect();
    monitor.stop();
  }
}

describe('issued tokens on three replicas of one Redis', { timeout: 60_000 }, () => {
  let redis: TestRedis;
  let replicas: RunningServer[] = [];
  let isolated: RunningServer[] = [];
  let plain: RunningServer;
  let shortLived: RunningServer[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    const options = { spec: NOTES, port: 0, store: redis.url, requestTimeoutMs: REQUEST_TIMEOUT_MS, logLevel: 'error' as const };
    replicas = await Promise.all([0, 1, 2].map(() => startServer(options)));
    isolated = await Promise.all([0, 1].map(() => startServer({ ...options, isolateByToken: true })));
    plain = await startServer({ ...options, spec: PLANTS, isolateByToken: true });
    shortLived = await Promise.all([0, 1].map(() => startServer({ ...options, tokenLifetime: 1 })));
  }, 30_000);

  afterAll(async () => {
    redis?.resume();
    await Promise.all([...replicas, ...isolated, plain, ...shortLived].map((server) => server?.close()));
    await redis?.stop();
  });

  it('honours on every replica a token one of them issued; /me answers its user; a made-up token is refused by all', async () => {
    const [first, second, third] = replicas.map((replica) => replica.url) as [string, string, string];
    const signedUp = await post(`${first}/users`, { username: 'ada', email: 'ada@example.com', password: PASSWORD });
    expect(signedUp.status, signedUp.text).toBe(201);
    const user = signedUp.json as { id: number; token: string };
    const loggedIn = await post(`${first}/login`, { username: 'ada', password: PASSWORD });
    expect(loggedIn.status, loggedIn.text).toBe(200);
    const { token } = loggedIn.json as { token: string };

    const note = await post(`${second}/notes`, { text: 'water the fern' }, token);
    expect(note.status, note.text).toBe(201);
    const listed = await get(`${third}/notes`, token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toEqual([note.json]);
    const me = await get(`${third}/me`, token);
    expect(me.status, me.text).toBe(200);
    expect(me.json).toEqual({ id: user.id, username: 'ada', email: 'ada@example.com' });
    // The sign-up's own token too.
    expect((await get(`${second}/me`, user.token)).json).toMatchObject({ username: 'ada' });

    for (const url of [first, second, third]) {
      const refused = await get(`${url}/notes`, 'made-up-token-0123456789abcdef');
      expect(refused.status, refused.text).toBe(401);
      expect((await get(`${url}/me`, 'made-up-token-0123456789abcdef')).status).toBe(401);
    }

    const kept = await everything(redis.url);
    // The digests are there (ps:<document hash>:{issued-tokens}:t:<digest>), the tokens nowhere.
    expect(kept.filter((key) => /^ps:[0-9a-f]{12}:\{issued-tokens\}:t:[0-9a-f]{64}$/.test(key)).length).toBeGreaterThanOrEqual(3);
    for (const secret of [token, user.token, PASSWORD]) expect(kept.filter((text) => text.includes(secret))).toEqual([]);
  });

  it('with --isolate-by-token, a token works in its user’s tenant on every replica', async () => {
    const [first, second] = isolated.map((replica) => replica.url) as [string, string];
    const signedUp = await post(`${first}/users`, { username: 'grace', email: 'grace@example.com', password: PASSWORD });
    expect(signedUp.status, signedUp.text).toBe(201);
    const { token } = signedUp.json as { token: string };
    const note = await post(`${first}/notes`, { text: 'repot the palm' }, token);
    expect(note.status, note.text).toBe(201);
    // Signed up without a token, so in the shared tenant (ada's note is there too); by the token's own tenant, none.
    const listed = await get(`${second}/notes`, token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toContainEqual(note.json);
    expect((await get(`${second}/me`, token)).json).toMatchObject({ username: 'grace' });
    // One lookup per request: the credential check's user names the tenant too.
    expect(await lookupsDuring(redis.url, async () => expect((await get(`${second}/notes`, token)).status).toBe(200))).toBe(1);
  });

  it('a log-out on one replica ends the session on every replica, said so; the key keeps no token', async () => {
    const [first, second, third] = replicas.map((replica) => replica.url) as [string, string, string];
    await post(`${first}/users`, { username: 'edsger', email: 'edsger@example.com', password: PASSWORD });
    const { token } = (await post(`${second}/login`, { username: 'edsger', password: PASSWORD })).json as { token: string };
    const other = ((await post(`${second}/login`, { username: 'edsger', password: PASSWORD })).json as { token: string }).token;
    expect((await get(`${third}/me`, token)).status).toBe(200);
    const out = await post(`${first}/logout`, undefined, token);
    expect(out.status, out.text).toBe(204);
    for (const url of [first, second, third]) {
      const refused = await get(`${url}/me`, token);
      expect(refused.status, refused.text).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect((refused.json as { message: string }).message).toMatch(/logged out/);
    }
    expect((await get(`${third}/me`, other)).status).toBe(200);
    for (const secret of [token, other]) expect((await everything(redis.url)).filter((text) => text.includes(secret))).toEqual([]);
  });

  it('a token expires on every replica after its lifetime (--token-lifetime 1), kept by Redis key expiry', async () => {
    const [first, second] = shortLived.map((replica) => replica.url) as [string, string];
    const signedUp = await post(`${first}/users`, { username: 'barbara', email: 'barbara@example.com', password: PASSWORD });
    const { token, expires_in } = signedUp.json as { token: string; expires_in: number };
    expect(expires_in).toBe(1);
    expect((await get(`${second}/me`, token)).status).toBe(200);
    // Redis expires the key itself: a time to live of the lifetime and the span its end is said in.
    const { Redis } = await import('ioredis');
    const probe = new Redis(redis.url);
    try {
      const keys = await probe.keys('ps:*:{issued-tokens}:t:*');
      const ttls = await Promise.all(keys.map((key) => probe.pttl(key)));
      expect(ttls.some((ttl) => ttl > 0 && ttl <= 1000 + ENDED_KEPT_MS)).toBe(true);
    } finally {
      probe.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const url of [first, second]) {
      const refused = await get(`${url}/me`, token);
      expect(refused.status, refused.text).toBe(401);
      expect((refused.json as { message: string }).message).toMatch(/expired/);
    }
  });

  it('looks no token up for a document without sign-in', async () => {
    const create = () => send(`${plain.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: '{"id":1,"name":"Fern"}' });
    expect(await lookupsDuring(redis.url, async () => expect((await create()).status).toBe(200))).toBe(0);
  });

  it('keeps at most the bound of tokens in Redis, the oldest forgotten first', async () => {
    const connection = await connectRedis({ kind: 'redis', url: redis.url, shown: redis.url }, { commandTimeoutMs: 1000 });
    try {
      const issued = createSharedIssuedTokens(connection, 'ps:bound-test', 3);
      const tokens = await Promise.all([1, 2, 3, 4].map((key) => issued.issue({ tenant: 'shared', collection: 'users', key: BigInt(key) })));
      expect(await connection.client.keys('ps:bound-test:{issued-tokens}:t:*')).toHaveLength(3);
      expect(Number(await connection.client.llen(issuedTokenKeys('ps:bound-test').order))).toBe(3);
      // Issued at once, kept in the order Redis ran them: exactly one of the four is forgotten.
      const found = await Promise.all(tokens.map((token) => issued.find(token)));
      expect(found.filter((user) => user === undefined)).toHaveLength(1);
      expect(found.filter((user) => user !== undefined).map((user) => typeof user?.key)).toEqual(['bigint', 'bigint', 'bigint']);
      expect(await issued.find('made-up')).toBeUndefined();
    } finally {
      await connection.close();
    }
  });

  it('answers a token-bearing request 503 with Retry-After while Redis hangs, and honours the token again after', async () => {
    const url = replicas[1]!.url;
    const signedUp = await post(`${replicas[0]!.url}/users`, { username: 'linus', email: 'linus@example.com', password: PASSWORD });
    const { token } = signedUp.json as { token: string };
    expect((await get(`${url}/me`, token)).status).toBe(200);
    redis.pause();
    try {
      const started = Date.now();
      const answers = await Promise.all([get(`${url}/notes`, token), get(`${url}/me`, token), get(`${url}/notes`, 'made-up-token')]);
      expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
      }
    } finally {
      redis.resume();
    }
    await expect.poll(async () => (await get(`${url}/me`, token)).status, { timeout: 10_000, interval: 100 }).toBe(200);
  });
});
