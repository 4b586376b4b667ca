/**
 * One Redis, two documents, three replicas of one of them (issue 22): each document's items sit in
 * its own namespace, so the same collection name holds different items and a reset clears only its
 * own; a page's cursor from one replica continues on another; and the journal's live stream on one
 * replica shows the requests another answered. (Servers in this process, one connection each.)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send, VALID_HEADERS } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
let redis: TestRedis;
/** Three replicas of the Plant Store 1.0.0. */
let replicas: RunningServer[] = [];
/** One replica of the same document as version 2.0.0: the same collection name, another namespace. */
let other: RunningServer;

const create = (server: RunningServer, id: number, name = `Fern ${id}`) =>
  send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: JSON.stringify({ id, name }) });

/** The public Plant Store reads no plant by id: the control API does. */
const read = (server: RunningServer, id: number) => send(`${server.url}/__control/resources/plants/items/${id}`);

beforeAll(async () => {
  redis = await startRedis();
  const second = join(redis.dir, 'plant-store-2.yaml');
  await writeFile(second, (await readFile(PUBLIC, 'utf8')).replace(/^( {2}version:) 1\.0\.0$/m, '$1 2.0.0'));
  replicas = await Promise.all([0, 1, 2].map(() => startServer({ spec: PUBLIC, port: 0, store: redis.url })));
  other = await startServer({ spec: second, port: 0, store: redis.url });
  expect(other.document.version).toBe('2.0.0');
});

afterAll(async () => {
  await Promise.all([...replicas, other].map((server) => server?.close()));
  await redis?.stop();
});

it('keeps two documents apart on one Redis; a reset through any replica clears only its own namespace', async () => {
  expect((await create(replicas[0]!, 1, 'one')).status).toBe(200);
  expect((await create(other, 1, 'two')).status).toBe(200);
  expect((await read(replicas[2]!, 1)).json).toMatchObject({ name: 'one' });
  expect((await read(other, 1)).json).toMatchObject({ name: 'two' });
  expect((await send(`${replicas[1]!.url}/__control/resources/plants/items`, { method: 'DELETE' })).status).toBe(204);
  expect((await read(replicas[2]!, 1)).status).toBe(404);
  expect((await read(other, 1)).json).toMatchObject({ name: 'two' });
  // Every key the stand-ins wrote is under one of the two namespaces (ps:<hash of the document>:…).
  const keys = (await redisKeys()).map((key) => key.split(':').slice(0, 2).join(':'));
  expect(new Set(keys).size).toBe(2);
  expect(keys.every((key) => /^ps:[0-9a-f]{12}$/.test(key))).toBe(true);
});

it("continues on another replica a page's cursor, in creation order", async () => {
  for (const id of [11, 12, 13, 14, 15]) expect((await create(replicas[id % 3]!, id)).status).toBe(200);
  const seen: number[] = [];
  let next: string | undefined = '/__control/resources/plants/items?limit=2';
  for (let hop = 0; next !== undefined && hop < 5; hop += 1) {
    const page = await send(`${replicas[hop % 3]!.url}${next}`);
    expect(page.status).toBe(200);
    seen.push(...(page.json as { id: number }[]).map((plant) => plant.id));
    next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
  }
  expect(seen).toEqual([11, 12, 13, 14, 15]);
});

it("streams on one replica's live journal the requests another replica answered", async () => {
  const abort = new AbortController();
  const stream = await fetch(`${replicas[2]!.url}/__control/journal/events?limit=1`, { signal: abort.signal });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  let text = '';
  try {
    await send(`${replicas[0]!.url}/plants?limit=4242`);
    const until = Date.now() + 10_000;
    while (!text.includes('"query":"limit=4242"') && Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
  } finally {
    abort.abort();
  }
  expect(text).toContain('"query":"limit=4242"');
});

async function redisKeys(): Promise<string[]> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redis.url);
  try {
    return await client.keys('*');
  } finally {
    client.disconnect();
  }
}
