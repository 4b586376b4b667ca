/**
 * Redocly's Museum API (test/fixtures/documents/museum.yaml): its `page` is an integer with no
 * minimum, so page=0 or a negative page is a valid request; the list answers it with an empty page,
 * as it answers a page past the last, not with a 400 the schema does not call for. An empty value
 * for an integer query parameter (`?limit=`) is no valid request (OpenAPI's allowEmptyValue is
 * false unless set), on a mocked operation as on a stateful one.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/museum.yaml', import.meta.url).pathname;
const BASIC = { authorization: `Basic ${Buffer.from('me:pw').toString('base64')}` };

describe('museum: paging parameters', () => {
  const server = serverFor({ spec: SPEC });

  it('answers page=0 and a negative page with an empty page, and page=1 with the events', async () => {
    const created = await send(`${server.current.url}/special-events`, {
      method: 'POST',
      headers: { ...BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mermaid treasure', location: 'Under the seaaa', eventDescription: 'Join us', dates: ['2023-09-05'], price: 30 }),
    });
    expect(created.status, created.text).toBe(201);
    for (const page of ['0', '-3']) {
      const reply = await send(`${server.current.url}/special-events?page=${page}`, { method: 'GET', headers: BASIC });
      expect(reply.status, `page ${page}: ${reply.text}`).toBe(200);
      expect(reply.json).toEqual([]);
      expectConforms(server.current.document, 'get', '/special-events', reply);
    }
    const first = await send(`${server.current.url}/special-events?page=1`, { method: 'GET', headers: BASIC });
    expect((first.json as unknown[]).length).toBe(1);
  });

  it('refuses an empty value for an integer query parameter, mocked or stateful, and takes one for a string parameter', async () => {
    for (const path of ['/museum-hours?limit=', '/museum-hours?page=', '/special-events?limit=']) {
      const reply = await send(`${server.current.url}${path}`, { method: 'GET', headers: BASIC });
      expect(reply.status, `${path}: ${reply.text}`).toBe(400);
      expect(reply.text).toContain(path.includes('page') ? 'page' : 'limit');
    }
    for (const path of ['/museum-hours?limit=5', '/museum-hours?startDate=']) {
      const reply = await send(`${server.current.url}${path}`, { method: 'GET', headers: BASIC });
      expect(reply.status, `${path}: ${reply.text}`).toBe(200);
      expectConforms(server.current.document, 'get', '/museum-hours', reply);
    }
  });
});
