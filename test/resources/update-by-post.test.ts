/**
 * Twilio (and Stripe) update an item by POST on it, with no PATCH: `POST /v1/Workspaces/{Sid}`
 * with `FriendlyName=…`. The stand-in mocked that POST, so an update answered a made-up item and a
 * read after it showed the old one. Where the document says so by its shapes (the POST answers the
 * item; its body names item properties, most of it), the POST is the item's update, a merge
 * (core/resources/infer.ts, updateByPost). A POST that is an action keeps being mocked.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { twilioStandIn } from './twilio-stand-in.js';
import { expectConforms } from './conforms.js';

describe('an update by POST on the item (Twilio)', () => {
  const { server, call } = twilioStandIn();

  it('changes the stored Workspace and Worker, and a read shows the change', async () => {
    const workspace = await call('POST', '/v1/Workspaces', { FriendlyName: 'Support' });
    const sid = (workspace.json as { sid: string }).sid;
    const updated = await call('POST', `/v1/Workspaces/${sid}`, { FriendlyName: 'Sales' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ sid, friendly_name: 'Sales' });
    expectConforms(server.current.document, 'post', '/v1/Workspaces/{Sid}', updated);
    expect((await call('GET', `/v1/Workspaces/${sid}`)).json).toMatchObject({ sid, friendly_name: 'Sales' });
    const worker = await call('POST', `/v1/Workspaces/${sid}/Workers`, { FriendlyName: 'Ada' });
    expect(worker.status, worker.text).toBe(201);
    const workerSid = (worker.json as { sid: string }).sid;
    expect((await call('POST', `/v1/Workspaces/${sid}/Workers/${workerSid}`, { FriendlyName: 'Grace', RejectPendingReservations: 'true' })).status).toBe(200);
    expect((await call('GET', `/v1/Workspaces/${sid}/Workers/${workerSid}`)).json).toMatchObject({ sid: workerSid, friendly_name: 'Grace' });
  });
});

describe('which POST on an item is its update', () => {
  const job = { type: 'object', properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, state: { type: 'string' } } };
  const documentWith = (post: object) => ({
    openapi: '3.1.0',
    info: { title: 'Jobs', version: '1' },
    paths: {
      '/jobs': {
        get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: job } } } } } },
        post: {
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { title: { type: 'string' } } } } } },
          responses: { '201': { description: 'made', content: { 'application/json': { schema: job } } } },
        },
      },
      '/jobs/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: job } } } } },
        post,
      },
    },
  });
  const roleOf = async (post: object) => (await inferResources(await loadDocument(documentWith(post)))).resources[0]?.operations.update;
  const answering = (schema: object, body: object) => ({
    requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: body } } } },
    responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
  });

  it('is one answering the item with a body of its properties', async () => {
    expect(await roleOf(answering(job, { Title: { type: 'string' }, State: { type: 'string' } }))).toBeDefined();
  });

  it('is not an action: another answer, or a body of other things', async () => {
    expect(await roleOf(answering({ type: 'object', properties: { queued: { type: 'boolean' } } }, { Title: { type: 'string' } }))).toBeUndefined();
    expect(await roleOf(answering(job, { reason: { type: 'string' }, force: { type: 'boolean' } }))).toBeUndefined();
    expect(await roleOf({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: job } } } } })).toBeUndefined();
  });
});
