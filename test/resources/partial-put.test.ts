/**
 * A PUT that updates only what it sends, read from the document's shapes
 * (core/conformance/replace-kind.ts): Box's `PUT /folders/{folder_id}` requires none of what a folder's
 * create requires, so renaming a folder keeps its description, parent and tags. A PUT whose body
 * requires what the create requires (the notes) replaces the item whole, as before.
 * test/resources/documents/partial-put.yaml.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/partial-put.yaml', import.meta.url));

describe('a PUT whose body requires none of what a create requires', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const write = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it('updates only the properties sent (Box renaming a folder keeps its description, parent and tags)', async () => {
    const created = await write('POST', '/folders', { name: 'ferns', description: 'shade lovers', parent: { id: '0' }, tags: ['green'] });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    const renamed = await write('PUT', `/folders/${id}`, { name: 'mosses' });
    expect(renamed.status, renamed.text).toBe(200);
    const whole = { id, name: 'mosses', description: 'shade lovers', parent: { id: '0' }, tags: ['green'] };
    expect(renamed.json).toEqual(whole);
    expect((await send(`${server.current.url}/folders/${id}`)).json).toEqual(whole);
    // An object sent replaces the stored one whole: a new parent, not a mix of two.
    const moved = await write('PUT', `/folders/${id}`, { parent: { id: '7' } });
    expect(moved.json).toEqual({ ...whole, parent: { id: '7' } });
  });

  it('replaces the whole item where the PUT body requires what the create requires (notes)', async () => {
    const created = await write('POST', '/notes', { title: 'water', body: 'twice a week' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    const replaced = await write('PUT', `/notes/${id}`, { title: 'light' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toEqual({ id, title: 'light' });
    expect((await send(`${server.current.url}/notes/${id}`)).json).toEqual({ id, title: 'light' });
  });

  it('changes nothing with an optional body left out, and still refuses a missing item', async () => {
    const created = await write('POST', '/folders', { name: 'cacti', parent: { id: '0' } });
    const id = (created.json as { id: string }).id;
    const none = await send(`${server.current.url}/folders/${id}`, { method: 'PUT' });
    expect(none.status, none.text).toBe(200);
    expect(none.json).toEqual({ id, name: 'cacti', parent: { id: '0' } });
    expect((await write('PUT', '/folders/999', { name: 'x' })).status).toBe(404);
  });

  it('conforms to its document under verify', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 3, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  }, 120_000);
});
