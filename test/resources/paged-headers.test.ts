/**
 * The headers a document declares for a list and a create, written as the stand-in knows them
 * (src/handlers/resource/answer-headers.ts): the total in X-Total-Count, the first, prev, next and
 * last pages in a Link header, a create's Location, any other required header a valid value; each
 * exposed to a browser app on another origin. json-server, a real server nobody here wrote, writes
 * the same Link and total for the same requests.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer, type RunningServer } from '../../src/index.js';
import { startJsonServer, type JsonServer } from '../support/json-server.js';
import { send, serverFor } from '../support/server.js';

const DECLARED = fileURLToPath(new URL('./documents/declared-headers.yaml', import.meta.url));
const JSON_SERVER_PAGED = fileURLToPath(new URL('../fixtures/json-server-paged.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A Link header's targets by relation, the origin taken out. */
function links(header: string | undefined, origin: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, url, rel] of (header ?? '').matchAll(/<([^>]*)>;\s*rel="([^"]+)"/g)) found[rel as string] = (url as string).replace(origin, '');
  return found;
}

describe('a list and a create that declare headers', () => {
  const server = serverFor({ spec: DECLARED });

  it('a create answers its Location, where the item is read, and a fresh X-Request-Id', async () => {
    const url = server.current.url;
    const first = await send(`${url}/things`, { method: 'POST', headers: JSON_TYPE, body: '{"id":41,"name":"a"}' });
    const second = await send(`${url}/things`, { method: 'POST', headers: JSON_TYPE, body: '{"id":42,"name":"b"}' });
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe('/things/41');
    expect((await send(`${url}${first.headers.location}`)).json).toEqual({ id: 41, name: 'a' });
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('a list answers its total and its pages; following next walks every item once', async () => {
    const url = server.current.url;
    for (let id = 1; id <= 5; id++) await send(`${url}/things`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ id, name: `t${id}` }) });
    const page = await send(`${url}/things?limit=3`);
    const total = Number(page.headers['x-total-count']);
    expect(total).toBe(7);
    expect(links(page.headers.link, url)).toEqual({ first: '/things?limit=3&offset=0', next: '/things?limit=3&offset=3', last: '/things?limit=3&offset=6' });
    const seen: unknown[] = [...(page.json as unknown[])];
    let next = links(page.headers.link, url).next;
    while (next !== undefined) {
      const reply = await send(`${url}${next}`);
      seen.push(...(reply.json as unknown[]));
      next = links(reply.headers.link, url).next;
      if (next === undefined) expect(links(reply.headers.link, url).prev).toBe('/things?limit=3&offset=3');
    }
    expect(seen).toHaveLength(total);
  });

  it('a browser app on another origin may read them', async () => {
    const reply = await send(`${server.current.url}/things?limit=1`, { headers: { origin: 'http://app.test' } });
    const exposed = (reply.headers['access-control-expose-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-total-count', 'link', 'location', 'x-request-id']));
  });

  it('verify finds the stand-in’s answers as declared (they lacked the required headers)', async () => {
    const report = await verify({ target: server.current.url, spec: DECLARED, runs: 30, seed: 27, timeoutMs: 5_000 });
    expect(report.checks.find((check) => check.id === 'response-headers-conformance')?.status).toBe('passed');
    expect(report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => check.id)).toEqual([]);
  }, 120_000);
});

describe('json-server’s paging, as json-server answers it', () => {
  const posts = Array.from({ length: 5 }, (_, index) => ({ id: index + 1, title: `post ${index + 1}`, author: 'ann' }));
  let real: JsonServer;
  let standIn: RunningServer;
  beforeAll(async () => {
    real = await startJsonServer({ posts }, '/posts');
    standIn = await startServer({ port: 0, spec: JSON_SERVER_PAGED, logLevel: 'silent' });
    for (const { title, author } of posts) await send(`${standIn.url}/posts`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ title, author }) });
  });
  afterAll(async () => {
    await standIn.close();
    await real.stop();
  });

  it.each(['?_page=1&_limit=2', '?_page=2&_limit=2', '?_page=3&_limit=2'])('%s: the same items, total and links', async (query) => {
    const [theirs, ours] = await Promise.all([send(`${real.url}/posts${query}`), send(`${standIn.url}/posts${query}`)]);
    expect(ours.json).toEqual(theirs.json);
    expect(ours.headers['x-total-count']).toBe(theirs.headers['x-total-count']);
    expect(links(ours.headers.link, standIn.url)).toEqual(links(theirs.headers.link, real.url));
  });
});

describe('json-server’s X-Total-Count, judged by verify', () => {
  it('is held to the posts the run created and has not deleted: json-server, a real server, passes', async () => {
    const real = await startJsonServer({ posts: [{ id: 1, title: 'post 1', author: 'ann' }] }, '/posts');
    try {
      const report = await verify({ target: real.url, spec: JSON_SERVER_PAGED, runs: 20, seed: 5, timeoutMs: 5_000 });
      const check = report.checks.find((c) => c.id === 'list-total-counted');
      expect(check?.status, check?.findings[0]?.message).toBe('passed');
      expect(check?.cases).toBeGreaterThan(0);
    } finally {
      await real.stop();
    }
  }, 120_000);
});
