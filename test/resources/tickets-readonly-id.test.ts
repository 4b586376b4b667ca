/**
 * tickets.yaml's Ticket.id is readOnly (the same schema is the PUT body and the answer): a client
 * SHOULD NOT send it, and one sent is the server's to ignore (OpenAPI 3.0, readOnly). So a PUT whose
 * body carries another ticket's id replaces the ticket the path names, keeping the path's id,
 * instead of a 400 the operation does not declare.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/tickets.yaml', import.meta.url).pathname;
const OTHER = '00000000-0000-1000-8000-000000000001';

describe('tickets: a readOnly id in a request body', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('is ignored by a replace: the path names the ticket, and its id stays', async () => {
    const created = await call('POST', '/tickets', { title: 'printer' });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const replaced = await call('PUT', `/tickets/${id}`, { id: OTHER, title: 'scanner' });
    expect(replaced.status, replaced.text).toBe(200);
    expectConforms(server.current.document, 'put', '/tickets/{ticketId}', replaced);
    expect(replaced.json).toMatchObject({ id, title: 'scanner' });
    expect((await call('GET', `/tickets/${id}`)).json).toMatchObject({ id, title: 'scanner' });
    expect((await call('GET', `/tickets/${OTHER}`)).status).toBe(404);
  });

  it('leaves a missing ticket missing (404), whatever id the body names', async () => {
    const reply = await call('PUT', `/tickets/00000000-0000-1000-8000-000000000000`, { id: OTHER, title: '' });
    expect(reply.status, reply.text).toBe(404);
  });
});
