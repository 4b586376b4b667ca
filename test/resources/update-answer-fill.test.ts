/**
 * An update whose answer requires what no create made (Box's restore of a web link from the trash
 * answers a `sequence_id` and a `path_collection`). A create and a replace made the required
 * properties of their answer that the item lacked; an update did not, so serve's restore broke
 * the document it stands in for. It now makes them once, at the change, and stores them.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const DOCUMENT = fileURLToPath(new URL('./documents/restored-bookmarks.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };

describe('an update whose answer requires what the item lacks', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it('answers it, made once and kept by later changes', async () => {
    const document = await loadDocument(DOCUMENT);
    const created = await call('POST', '/bookmarks', { url: 'https://example.com/' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    const restored = await call('PATCH', `/bookmarks/${id}`, {});
    expect(restored.status, restored.text).toBe(200);
    expectConforms(document, 'patch', '/bookmarks/{bookmark_id}', restored);
    const again = await call('PATCH', `/bookmarks/${id}`, { name: 'Example' });
    expectConforms(document, 'patch', '/bookmarks/{bookmark_id}', again);
    const { sequence_id, path_collection } = restored.json as Record<string, unknown>;
    expect(again.json).toMatchObject({ id, name: 'Example', sequence_id, path_collection });
  });

  it('passes verify’s judging of answers', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 4, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  });
});
