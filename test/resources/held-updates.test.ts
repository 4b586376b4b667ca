/**
 * Changes of Box's web links in their shape (test/resources/documents/web-links.yaml), both valid
 * requests that serve refused with 422 ("the web_link would no longer be valid"):
 * - `{"shared_link": null}` to the PUT's `#remove_shared_link` alternative, where the link declares
 *   `allOf: [the link, {description}, {nullable: true}]`. core's normaliser and the answers' judge
 *   (allOf merged) read that null as admitted, so the held-value rule let it through; the stored
 *   link was judged by Ajv with the typeless `nullable` dropped alone in its branch. Now every
 *   reading admits it (core/prism/int64-bounds.ts), and the link is stored and answered with null.
 * - `{"parent": {}}` to the POST on the link (`{id}` there, `{id, type}` required in the link): a
 *   create and a replace store such a value only where it fits the item (core/conformance/held-value.ts),
 *   an update stored it as sent. Now an update keeps the stored value there and makes the rest.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/web-links.yaml', import.meta.url));

describe('an update sending what the item declares otherwise', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const write = (method: string, path: string, body: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, body: JSON.stringify(body) });
  const link = async () => {
    const created = await write('POST', '/web_links', { url: 'https://example.com', parent: { id: '7' } });
    expect(created.status, created.text).toBe(200);
    const id = (created.json as { id: string }).id;
    const shared = await write('PUT', `/web_links/${id}`, { shared_link: { access: 'open' } });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.json).toMatchObject({ id, shared_link: { access: 'open' } });
    return id;
  };

  it('stores a shared link set to null where the link declares null in an allOf branch of its own', async () => {
    const id = await link();
    const removed = await write('PUT', `/web_links/${id}?fields=shared_link`, { shared_link: null });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toEqual({ id, type: 'web_link', url: 'https://example.com', shared_link: null });
    expect((await send(`${server.current.url}/web_links/${id}`)).json).toEqual({ id, type: 'web_link', url: 'https://example.com', shared_link: null });
  });

  it('keeps the stored value where the one sent does not fit the link, and applies the rest', async () => {
    const id = await link();
    const restored = await write('POST', `/web_links/${id}`, { name: 'Ferns', parent: {} });
    expect(restored.status, restored.text).toBe(201);
    expect(restored.json).toEqual({ id, type: 'web_link', url: 'https://example.com', name: 'Ferns', shared_link: { access: 'open' } });
    const moved = await write('POST', `/web_links/${id}`, { parent: { id: '9' } });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.json).not.toHaveProperty('parent');
  });

  it('still refuses null where the request declares no null (the route first PUT)', async () => {
    const id = await link();
    const refused = await write('PUT', `/web_links/${id}`, { shared_link: null });
    expect(refused.status, refused.text).toBe(400);
  });

  // verify held the restore (the link's update by POST) to a create's rule: a stored name it did not send was "added".
  it('conforms to its document under verify', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 3, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  });
});
