/**
 * A mocked answer says back a sent object inside it where the answer's declaration does not hold it
 * whole (src/handlers/mock-echo.ts): Box's folder copy sends `parent: {id}` and answers a parent that
 * requires `{id, type}`, so serve kept the example's parent and verify found `parent.id` not said
 * back (response-reflects-request), which compares inside objects.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/folder-copy.yaml', import.meta.url));

describe('a sent object the answer declares otherwise', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });

  it('is said back inside, and the answer keeps what its declaration requires', async () => {
    const reply = await send(`${server.current.url}/folder_copies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parent: { id: '42' }, name: 'Copy' }),
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json).toMatchObject({ name: 'Copy', parent: { id: '42', type: 'folder' } });
  });

  it('passes verify’s judging of echoes and answer bodies', { timeout: 60_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 4, timeoutMs: 5_000 });
    for (const id of ['response-reflects-request', 'response-schema-conformance'] as const) {
      const check = report.checks.find((candidate) => candidate.id === id);
      expect(check?.findings.map((finding) => finding.message) ?? [], id).toEqual([]);
      expect(check?.status, id).toBe('passed');
    }
  });
});
