/**
 * GET /__control/journal/events over real HTTP: the journal as server-sent events (the inspector's
 * live view). Backlog then live entries, the admin token, the tenant's own entries with isolation,
 * a cap on open streams, and a server that closes without waiting on them.
 */
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_JOURNAL_STREAMS } from '../../src/control/journal-events.js';
import { startServer, type RunningServer } from '../../src/index.js';
import { expectError, postPlant, send, serverFor, VALID_HEADERS } from '../support/server.js';

const ADMIN = 'events-admin-token';
const ADMIN_AUTH = { authorization: `Bearer ${ADMIN}` };

interface Event {
  readonly id: string;
  readonly type: string;
  readonly entry: { sequence: number; status: number; tenant: string; path: string; request: { headers: Record<string, string> } };
}

/** An open stream: the events read so far, and a wait for the `count`-th. */
async function openStream(url: string, headers: Record<string, string> = ADMIN_AUTH, query = '') {
  const controller = new AbortController();
  const response = await request(`${url}/__control/journal/events${query}`, { headers, signal: controller.signal });
  const events: Event[] = [];
  let text = '';
  let ended = false;
  const waiters: Array<() => void> = [];
  const reading = (async () => {
    try {
      for await (const chunk of response.body) {
        text += chunk.toString();
        let end;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
          if (fields.data) events.push({ id: fields.id ?? '', type: fields.event ?? '', entry: JSON.parse(fields.data) });
        }
        waiters.splice(0).forEach((wake) => wake());
      }
    } catch {
      // Aborted by close().
    }
    ended = true;
    waiters.splice(0).forEach((wake) => wake());
  })();
  return {
    status: response.statusCode,
    headers: response.headers,
    events,
    get ended() {
      return ended;
    },
    async waitFor(count: number, timeoutMs = 5_000): Promise<Event[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count && !ended) {
        if (Date.now() > deadline) throw new Error(`only ${events.length} of ${count} events arrived`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 100);
        });
      }
      return events;
    },
    ends: reading,
    close: () => controller.abort(),
  };
}

describe('streamJournal', () => {
  const server = serverFor({ adminToken: ADMIN });

  test('needs the admin token', async () => {
    expectError(await send(`${server.current.url}/__control/journal/events`), 401, 401);
    expectError(await send(`${server.current.url}/__control/journal/events`, { headers: VALID_HEADERS }), 401, 401);
  });

  test('sends the backlog, then each entry as the stand-in answers it, credentials masked', async () => {
    await postPlant(server.current.url, { id: 1, name: 'Fern' });
    const stream = await openStream(server.current.url);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['content-length']).toBeUndefined();
    const [first] = await stream.waitFor(1);
    expect(first).toMatchObject({ id: '1', type: 'entry', entry: { sequence: 1, status: 200, path: '/plants' } });

    await postPlant(server.current.url, { id: 2 });
    const events = await stream.waitFor(2);
    expect(events[1]).toMatchObject({ id: '2', entry: { sequence: 2, status: 400 } });
    expect(events[1]?.entry.request.headers.authorization).toBe('Bearer ***');
    stream.close();
  });

  test('a limit keeps the backlog short', async () => {
    const last = server.current.journal.entries().at(-1)?.sequence;
    expect(last).toBeGreaterThan(1);
    const stream = await openStream(server.current.url, ADMIN_AUTH, '?limit=1');
    await stream.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.events.map((event) => event.entry.sequence)).toEqual([last]);
    stream.close();
  });
});

describe('streamJournal, many at once', () => {
  const server = serverFor();

  test(`at most ${MAX_JOURNAL_STREAMS} are open at once; a closed one frees its place`, async () => {
    const streams = await Promise.all(Array.from({ length: MAX_JOURNAL_STREAMS }, () => openStream(server.current.url, {})));
    expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
    const refused = await send(`${server.current.url}/__control/journal/events`);
    expect(expectError(refused, 503, 503)).toBe(
      `too many journal streams are open: ${MAX_JOURNAL_STREAMS} are open; close another inspector tab or stream and retry`,
    );
    streams[0]?.close();
    const again = async () => {
      const stream = await openStream(server.current.url, {});
      stream.close();
      return stream.status;
    };
    await expect.poll(again).toBe(200);
    streams.forEach((stream) => stream.close());
  });
});

describe('streamJournal with isolation', () => {
  const server = serverFor({ isolateByToken: true });

  test("a tenant's stream carries only its own requests", async () => {
    const url = server.current.url;
    const stream = await openStream(url, { 'plantstore-token': 'alice' });
    await postPlant(url, { id: 1, name: 'Bob fern' }, { authorization: 'Bearer bob', 'content-type': 'application/json' });
    await postPlant(url, { id: 1, name: 'Alice fern' }, { authorization: 'Bearer alice', 'content-type': 'application/json' });
    const [only] = await stream.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.events).toHaveLength(1);
    expect(only?.entry.tenant).not.toBe('shared');
    expect(server.current.journal.entries().map((entry) => entry.tenant)).toContain(only?.entry.tenant);
    stream.close();
  });
});

describe('closing the server', () => {
  let server: RunningServer | undefined;
  afterEach(async () => server?.close());

  test('ends open streams instead of waiting on them', async () => {
    server = await startServer({ port: 0 });
    const stream = await openStream(server.url, {});
    expect(stream.status).toBe(200);
    const started = performance.now();
    await server.close();
    await stream.ends;
    // Without ending them, close() waits for Node's 1 s fallback that cuts every connection.
    expect(performance.now() - started).toBeLessThan(500);
    expect(stream.ended).toBe(true);
    server = undefined;
  });
});
