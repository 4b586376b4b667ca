/**
 * An item path parameter named for the answer's id by its last word (Box's `{webhook_id}`, whose
 * webhooks the server numbers), beside a create body that requires one other string (the address
 * the webhook calls): test/resources/documents/webhooks-by-id.yaml. Inference had keyed webhooks by
 * the address (the create body's one required string, client-assigned), so the list, which answers
 * mini webhooks (id, type, target), showed no key at all, and a webhook was read at its URL-encoded
 * address. The parameter's name settles it: the server-assigned id.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/webhooks-by-id.yaml', import.meta.url));
const WEBHOOK = { target: { id: '1231232', type: 'file' }, address: 'https://example.com/webhooks', triggers: ['FILE.UPLOADED'] };

describe('an item path parameter named for the answer id by its last word', () => {
  it('keys the items by that id, assigned by the server', async () => {
    const { resources, notes } = inferResources(await loadDocument(DOCUMENT));
    expect(resources[0]?.identifier).toMatchObject({ parameter: 'webhook_id', property: 'id', assignedBy: 'server' });
    expect(notes.map((note) => note.message)).toContainEqual(expect.stringContaining('names "id"'));
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  it('lists each webhook with the key its read path takes', async () => {
    const created = await send(`${server.current.url}/webhooks`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(WEBHOOK) });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json as { id: string };
    expect(typeof id).toBe('string');
    const listed = await send(`${server.current.url}/webhooks`);
    expect(listed.json).toMatchObject({ entries: [{ id, target: WEBHOOK.target }] });
    const read = await send(`${server.current.url}/webhooks/${id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ id, ...WEBHOOK });
  });
});
