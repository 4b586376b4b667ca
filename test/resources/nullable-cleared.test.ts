/**
 * A client clearing a nullable property: Box removes a folder's shared link by a PUT of
 * `{"shared_link": null}` to its `#remove_shared_link` alternative (a nullable object there), and
 * answers the folder with `"shared_link": null`, its declaration being `allOf: [SharedLink],
 * nullable: true` (test/resources/documents/shared-links.yaml). serve refused it: the stored folder
 * was judged with `nullable` dropped beside the `allOf`, so null "must be object" (422). Where the
 * folder's declaration cannot hold null (`lock`), the property is left out instead
 * (core/conformance/held-value.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/shared-links.yaml', import.meta.url));

describe('a replace that clears a nullable property', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const write = (method: string, path: string, body: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, body: JSON.stringify(body) });
  const folder = async () => {
    const created = await write('POST', '/folders', { name: 'ferns' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    const linked = await write('PUT', `/folders/${id}`, { name: 'ferns', shared_link: { access: 'open' }, lock: { by: 'ada' } });
    expect(linked.status, linked.text).toBe(200);
    expect(linked.json).toEqual({ id, name: 'ferns', shared_link: { access: 'open' }, lock: { by: 'ada' } });
    return id;
  };

  it('stores the null where the item declares null (nullable beside allOf), and answers it', async () => {
    const id = await folder();
    const cleared = await write('PUT', `/folders/${id}?fields=shared_link`, { shared_link: null });
    expect(cleared.status, cleared.text).toBe(200);
    // A PUT replaces what its body can say: `lock`, not sent, goes too.
    expect(cleared.json).toEqual({ id, name: 'ferns', shared_link: null });
    const read = await send(`${server.current.url}/folders/${id}`);
    expect(read.json).toEqual({ id, name: 'ferns', shared_link: null });
  });

  it('leaves the property out where the item cannot hold null', async () => {
    const id = await folder();
    const cleared = await write('PUT', `/folders/${id}?fields=shared_link`, { lock: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json).toEqual({ id, name: 'ferns' });
    const read = await send(`${server.current.url}/folders/${id}`);
    expect(read.json).toEqual({ id, name: 'ferns' });
  });

  it('still refuses null where the request declares no null (the route first PUT)', async () => {
    const id = await folder();
    const refused = await write('PUT', `/folders/${id}`, { name: 'ferns', shared_link: null });
    expect(refused.status, refused.text).toBe(400);
  });

  it('conforms to its document under verify', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 3, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  });
});
