/**
 * Three `plantstore serve` replicas (real processes) on one redis-server answer as one API
 * (issue 22): one id created once whichever replicas race for it, what one replica stores read and
 * listed by the others in creation order, server-assigned ids unique over all three, faults and
 * the journal shared, nothing acknowledged lost to a SIGKILL of a replica or of Redis itself.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, exited, type ServeProcess } from '../persistence/cli-server.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { startRedis, type TestRedis } from './redis-server.js';

const PETS = 'test/fixtures/documents/optional-ids.yaml';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json<T = unknown>(): T;
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
}

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopAll(replicas: readonly ServeProcess[]): Promise<void> {
  await Promise.all(
    replicas.map(async ({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    }),
  );
}

describe('three replicas on one Redis', { timeout: 60_000 }, () => {
  let redis: TestRedis;
  let replicas: ServeProcess[] = [];
  const urls = () => replicas.map((replica) => replica.url);
  const serve = () => spawnServe(['--spec', PETS, '--store', redis.url, '--log-level', 'warn', '--request-timeout-ms', '4000'], 20_000);

  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([serve(), serve(), serve()]);
  }, 60_000);

  afterAll(async () => {
    await stopAll(replicas);
    await redis?.stop();
  });

  it('takes one id once when creates race for it on every replica: exactly one 200', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => call(urls()[index % 3] as string, 'POST', '/pets', { id: 4242, name: `racer ${index}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(29);
  });

  it('reads and lists on the other replicas what one replica created, in creation order', async () => {
    const [first, second, third] = urls() as [string, string, string];
    for (const [index, url] of [first, second, third, first].entries()) {
      expect((await call(url, 'POST', '/pets', { id: 100 + index, name: `order ${index}` })).status).toBe(200);
    }
    for (const url of [second, third]) {
      const read = await call(url, 'GET', '/pets/101');
      expect(read.status).toBe(200);
      expect(read.json<{ name: string }>().name).toBe('order 1');
    }
    const listed = (await call(third, 'GET', '/pets?limit=100')).json<{ id: number; name: string }[]>();
    const ours = listed.filter((pet) => pet.id >= 100 && pet.id < 104).map((pet) => pet.id);
    expect(ours).toEqual([100, 101, 102, 103]);
  });

  it('keeps an int64 id beyond 2^53 exact across replicas', async () => {
    const [first, second] = urls() as [string, string];
    const big = '9007199254740993';
    const created = await fetch(`${first}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"id": ${big}, "name": "big"}` });
    expect(created.status).toBe(200);
    const read = await call(second, 'GET', `/pets/${big}`);
    expect(read.status).toBe(200);
    expect(read.text).toContain(big);
  });

  it('deletes on one replica and re-creates on another', async () => {
    const [first, second, third] = urls() as [string, string, string];
    expect((await call(first, 'POST', '/pets', { id: 500, name: 'before' })).status).toBe(200);
    expect((await call(second, 'DELETE', '/pets/500')).status).toBe(204);
    expect((await call(third, 'GET', '/pets/500')).status).toBe(404);
    expect((await call(first, 'DELETE', '/pets/500')).status).toBe(404);
    expect((await call(third, 'POST', '/pets', { id: 500, name: 'after' })).status).toBe(200);
    expect((await call(first, 'GET', '/pets/500')).json<{ name: string }>().name).toBe('after');
  });

  it('gives server-assigned ids unique over the three replicas, each readable on every one', async () => {
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, index) => call(urls()[index % 3] as string, 'POST', '/pets', { name: `assigned ${index}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((answer) => answer.json<{ id: number }>().id);
    expect(new Set(ids).size).toBe(45);
    for (const [index, id] of ids.entries())
      if (index % 9 === 0) expect((await call(urls()[(index + 1) % 3] as string, 'GET', `/pets/${id}`)).status).toBe(200);
  });

  it('applies a fault added through one replica on all of them, its times counted over all', async () => {
    const [first, second, third] = urls() as [string, string, string];
    const added = await call(first, 'POST', '/__control/faults', { kind: 'status', status: 503, times: 4, operation: 'getPet' });
    expect(added.status).toBe(201);
    // Listed at once by another replica (the control API reads its own store), applied within a second by all.
    expect((await call(third, 'GET', '/__control/faults')).json<{ id: string }[]>().map((fault) => fault.id)).toEqual([added.json<{ id: string }>().id]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const statuses: number[] = [];
    for (let round = 0; round < 4; round += 1) for (const url of [second, third, first]) statuses.push((await call(url, 'GET', '/pets/4242')).status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(4);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect((await call(second, 'GET', '/__control/faults')).json()).toEqual([]);
    // A fault without times, cleared through another replica: gone on all within a second.
    expect((await call(second, 'POST', '/__control/faults', { kind: 'status', status: 500, operation: 'getPet' })).status).toBe(201);
    await eventually(
      () => call(first, 'GET', '/pets/4242'),
      (answer) => answer.status === 500,
    );
    expect((await call(third, 'DELETE', '/__control/faults')).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const url of [first, second, third]) expect((await call(url, 'GET', '/pets/4242')).status).toBe(200);
  });

  it("shows every replica's requests in the journal of any one, and clears them on all", async () => {
    const [first, second, third] = urls() as [string, string, string];
    expect((await call(second, 'DELETE', '/__control/journal')).status).toBe(204);
    await call(first, 'GET', '/pets/1001');
    await call(second, 'GET', '/pets/1002');
    await call(third, 'GET', '/pets/1003');
    // A replica journals a request once it has answered it, so another replica's entry may take a moment to arrive.
    const paths = ['/pets/1001', '/pets/1002', '/pets/1003'];
    for (const url of [first, second, third]) {
      const entries = await eventually(
        async () => (await call(url, 'GET', '/__control/journal')).json<{ path: string; sequence: number }[]>(),
        (found) => found.length === 3,
      );
      expect(entries.map((entry) => entry.path).sort()).toEqual(paths);
      // One sequence over every replica, in the order the entries reached Redis.
      expect(entries.map((entry) => entry.sequence)).toEqual([...entries.map((entry) => entry.sequence)].sort((a, b) => a - b));
      expect(new Set(entries.map((entry) => entry.sequence)).size).toBe(3);
    }
  });

  it('loses nothing acknowledged when a replica is killed mid-burst', async () => {
    const victim = replicas[2] as ServeProcess;
    const acknowledged: number[] = [];
    let next = 20_000;
    const worker = async () => {
      for (;;) {
        const id = next++;
        const answer = await call(victim.url, 'POST', '/pets', { id, name: 'burst' }).catch(() => undefined);
        if (answer === undefined) return;
        if (answer.status === 200) acknowledged.push(id);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await eventually(
      async () => acknowledged.length,
      (count) => count >= 24,
    );
    victim.child.kill('SIGKILL');
    await Promise.all(workers);
    const survivor = urls()[0] as string;
    for (const id of acknowledged) expect((await call(survivor, 'GET', `/pets/${id}`)).status, `pet ${id}`).toBe(200);
    replicas[2] = await serve();
  });

  it('answers 503 with Retry-After while Redis is down, within the timeout, and recovers with its append-only file', async () => {
    const [first, second] = urls() as [string, string];
    expect((await call(first, 'POST', '/pets', { id: 777, name: 'kept' })).status).toBe(200);
    await redis.kill();
    for (const url of [first, second]) {
      const started = Date.now();
      const refused = await call(url, 'POST', '/pets', { id: 778, name: 'not kept' });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      // The document's Error shape ({code, message}), naming the store that is away.
      expect(refused.json<{ code: number; message: string }>()).toMatchObject({ code: 503, message: expect.stringContaining('did not answer') });
      expect((await call(url, 'GET', '/pets/777')).status).toBe(503);
    }
    await redis.restart();
    // Each replica reconnects by itself.
    for (const url of [first, second]) {
      const read = await eventually(
        () => call(url, 'GET', '/pets/777'),
        (answer) => answer.status === 200,
      );
      expect(read.json<{ name: string }>().name).toBe('kept');
    }
    expect((await call(first, 'GET', '/pets/778')).status).toBe(404);
    expect(
      (
        await eventually(
          () => call(first, 'POST', '/pets', { id: 778, name: 'now' }),
          (answer) => answer.status !== 503,
        )
      ).status,
    ).toBe(200);
  });
});

describe('isolation and seeds over three replicas of the Plant Store', { timeout: 90_000 }, () => {
  /** 200, or the Error's code (409 for a taken id; the Plant Store answers it with HTTP 400). */
  const create = async (url: string, token: string, id: number) => {
    const answer = await call(url, 'POST', '/plants', { id, name: 'p' }, { authorization: `Bearer ${token}` });
    return { status: answer.status === 200 ? 200 : answer.json<{ error: number }>().error };
  };
  let redis: TestRedis;
  let replicas: ServeProcess[] = [];
  const urls = () => replicas.map((replica) => replica.url) as [string, string, string];

  beforeAll(async () => {
    redis = await startRedis();
    const seed = join(redis.dir, 'seed.json');
    await writeFile(seed, JSON.stringify([{ id: 1, name: 'Seeded' }]));
    const serve = () => spawnServe(['--store', redis.url, '--isolate-by-token', '--seed-data', seed, '--log-level', 'warn'], 20_000);
    replicas = [await serve()];
    // alice's first request makes her tenant, with the seed.
    expect((await create(replicas[0]!.url, 'alice', 2)).status).toBe(200);
    // The seed is taken once per store: a seeded plant deleted (alice's, and the shared tenant's) before later replicas start stays deleted.
    for (const headers of [{ 'plantstore-token': 'alice' }, {}]) {
      const deleted = await call(replicas[0]!.url, 'DELETE', '/__control/resources/plants/items/1', undefined, headers);
      if (deleted.status !== 204) throw new Error(`could not delete the seeded plant: ${deleted.status} ${deleted.text}`);
    }
    replicas.push(...(await Promise.all([serve(), serve()])));
  }, 90_000);

  afterAll(async () => {
    await stopAll(replicas);
    await redis?.stop();
  });

  it("keeps each token's plants apart whichever replica answers", async () => {
    const [first, second, third] = urls();
    expect((await create(first, 'alice', 5)).status).toBe(200);
    expect((await create(second, 'alice', 5)).status).toBe(409);
    expect((await create(third, 'bob', 5)).status).toBe(200);
    expect((await create(first, 'bob', 5)).status).toBe(409);
    // The control API's view of a token's tenant is the same on every replica.
    const bobs = await call(second, 'GET', '/__control/resources/plants/items', undefined, { 'plantstore-token': 'bob' });
    expect(bobs.json<{ id: number }[]>().map((plant) => plant.id)).toEqual([1, 5]);
  });

  it('applies the seed once per store, not once per replica', async () => {
    const [first, second, third] = urls();
    // alice's seeded plant was deleted before the later replicas started: it did not come back.
    expect((await create(second, 'alice', 1)).status).toBe(200);
    // Nor did the shared tenant's.
    expect((await call(third, 'GET', '/__control/resources/plants/items/1')).status).toBe(404);
    // carol is new: her tenant gets the seed once, whichever replica she reaches first.
    expect((await create(third, 'carol', 1)).status).toBe(409);
    expect((await create(first, 'carol', 1)).status).toBe(409);
  });

  it('names a tenant made on one replica by its digest on another, and resets only that tenant', async () => {
    const [first, second, third] = urls();
    expect((await create(first, 'dave', 7)).status).toBe(200);
    expect((await create(first, 'erin', 7)).status).toBe(200);
    // third never saw dave: it finds his tenant in Redis (an unknown one would be a 404).
    const viewed = await call(third, 'GET', `/__control/resources/plants/items?tenant=${tenantOfToken('dave')}`);
    expect(viewed.status).toBe(200);
    expect(viewed.json<{ id: number }[]>().map((plant) => plant.id)).toContain(7);
    expect((await call(third, 'GET', `/__control/resources/plants/items?tenant=${tenantOfToken('nobody')}`)).status).toBe(404);
    expect((await call(second, 'DELETE', '/__control/resources/plants/items', undefined, { 'plantstore-token': 'dave' })).status).toBe(204);
    expect((await create(third, 'dave', 7)).status).toBe(200);
    expect((await create(third, 'erin', 7)).status).toBe(409);
  });
});
