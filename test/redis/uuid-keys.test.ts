/**
 * Server-assigned uuid keys over three replicas on one Redis (issue 22: exact uuid keys, creation
 * order for lists and cursors): a ticket opened on any replica is read on the others by its uuid,
 * and the API's own cursor paging, hopping from replica to replica, lists every ticket once, in
 * the order they were opened. (Servers in this process, one connection each.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { send } from '../support/server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const TICKETS = new URL('../fixtures/documents/tickets.yaml', import.meta.url).pathname;
const JSON_BODY = { 'content-type': 'application/json' };
let redis: TestRedis;
let replicas: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  replicas = await Promise.all([0, 1, 2].map(() => startServer({ spec: TICKETS, port: 0, store: redis.url })));
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis?.stop();
});

it('reads on every replica the uuid another assigned, and pages over replicas in creation order', async () => {
  const opened: string[] = [];
  for (let index = 0; index < 7; index += 1) {
    const answer = await send(`${replicas[index % 3]!.url}/tickets`, { method: 'POST', headers: JSON_BODY, body: JSON.stringify({ title: `t${index}` }) });
    expect(answer.status).toBe(201);
    opened.push((answer.json as { id: string }).id);
  }
  expect(new Set(opened).size).toBe(7);
  for (const [index, id] of opened.entries()) {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const read = await send(`${replicas[(index + 1) % 3]!.url}/tickets/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id, title: `t${index}` });
  }
  const listed: string[] = [];
  let cursor: string | null | undefined;
  for (let hop = 0; hop < 10 && cursor !== null; hop += 1) {
    const query = cursor === undefined ? 'limit=3' : `limit=3&cursor=${encodeURIComponent(cursor)}`;
    const page = await send(`${replicas[hop % 3]!.url}/tickets?${query}`);
    expect(page.status).toBe(200);
    const { data, next } = page.json as { data: { id: string }[]; next?: string | null };
    listed.push(...data.map((ticket) => ticket.id));
    cursor = next ?? null;
  }
  expect(listed).toEqual(opened);
});
