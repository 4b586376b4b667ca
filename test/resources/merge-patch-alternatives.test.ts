/**
 * A JSON Merge Patch of a property declared as one of several objects replaces it whole
 * (handlers/resource/merge.ts alternativeObjects): a pool's static config patched with a dynamic one
 * had been merged into both at once, which fits neither alternative (oneOf), and the valid change was
 * refused with 422. Other objects still merge member by member, as RFC 7396 says.
 * test/resources/documents/merge-patch-alternatives.yaml.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/merge-patch-alternatives.yaml', import.meta.url));
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('a merge patch of one of several objects', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });

  it('replaces the config whole, and still merges the labels', async () => {
    const created = await send(`${server.current.url}/pools`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ name: 'web', config: { target_number_instances: 2 }, labels: { team: 'a' } }),
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    const patched = await send(`${server.current.url}/pools/${id}`, {
      method: 'PATCH',
      headers: MERGE_PATCH,
      body: JSON.stringify({ config: { min_instances: 1, max_instances: 3 }, labels: { tier: 'web' } }),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toEqual({ id, name: 'web', config: { min_instances: 1, max_instances: 3 }, labels: { team: 'a', tier: 'web' } });
  });
});
