/**
 * tickets.yaml's list: `cursor` is any string and the list declares no failure status, so an empty
 * `cursor=` (a form's blank field) is no cursor, the first page, not a refusal the document cannot name;
 * a cursor it never gave is past the end: an empty last page (where the list declares 400, a 400).
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/tickets.yaml', import.meta.url).pathname;
const DECLARES_400 = new URL('./documents/cursor-refusal.yaml', import.meta.url).pathname;

describe('tickets: paging', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('answers an empty cursor with the first page', async () => {
    await call('POST', '/tickets', { title: 'printer' });
    const blank = await call('GET', '/tickets?cursor=');
    expect(blank.status).toBe(200);
    expectConforms(server.current.document, 'get', '/tickets', blank);
    expect(blank.json).toEqual(await call('GET', '/tickets').then((reply) => reply.json));
  });

  it('answers a cursor the list never gave with an empty last page, as the list declares no failure', async () => {
    await call('POST', '/tickets', { title: 'scanner' });
    for (const cursor of ['nonsense', '%20', '999999999']) {
      const reply = await call('GET', `/tickets?cursor=${cursor}`);
      expect(reply.status, `${cursor}: ${reply.text}`).toBe(200);
      expectConforms(server.current.document, 'get', '/tickets', reply);
      expect(reply.json).toEqual({ data: [] });
      expect(reply.headers['plantstore-next-cursor']).toBeUndefined();
    }
  });
});

describe('a cursor-paged list that declares 400', () => {
  const server = serverFor({ spec: DECLARES_400 });

  it('refuses a cursor it never gave with its declared 400, in its error shape', async () => {
    const reply = await send(`${server.current.url}/notes?cursor=nonsense`);
    expect(reply.status).toBe(400);
    expectConforms(server.current.document, 'get', '/notes', reply);
    expect(reply.json).toEqual({ code: 400, message: expect.stringContaining('nonsense') });
  });
});
