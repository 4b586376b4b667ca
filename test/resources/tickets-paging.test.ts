/**
 * tickets.yaml's list: `cursor` is any string and the list declares no failure status, so an empty
 * `cursor=` (a form's blank field) is no cursor, the first page, not a refusal the document cannot name.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/tickets.yaml', import.meta.url).pathname;

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

  it('still refuses a cursor the list never gave', async () => {
    expect((await call('GET', '/tickets?cursor=nonsense')).status).toBe(400);
  });
});
