/**
 * A mocked answer gets the required properties its examples leave out (src/handlers/mock-mend.ts).
 * Box's shared link requires `accessed` and never declares it: serve answered Box's file reads and
 * folder listings from the examples without it, and verify found 270 of them broke the document.
 * A value of another type than its schema says (Box's example of a collaboration's `created_by`, an
 * array for an object) is replaced by its schema's small value. The document here has these shapes,
 * written for plantstore (test/mocking/documents/).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/required-undeclared.yaml', import.meta.url));

describe('a mocked answer whose examples leave out a required property', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });

  it('holds it, and keeps the examples’ values', async () => {
    for (let round = 0; round < 2; round++) {
      const reply = await send(`${server.current.url}/files/f-${round}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: '12345', shared_link: { url: 'https://example.com/s/1', download_count: 3 } });
      expect(Object.hasOwn((reply.json as { shared_link: object }).shared_link, 'accessed')).toBe(true);
    }
  });

  it('holds an object where the example has an array', async () => {
    const reply = await send(`${server.current.url}/files/f-1`);
    expect((reply.json as { created_by: unknown }).created_by).toEqual({ id: '7', type: 'user' });
  });

  it('holds it in each item of a list of alternatives', async () => {
    const reply = await send(`${server.current.url}/folders/0/items`);
    const entries = (reply.json as { entries: { shared_link: object }[] }).entries;
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(Object.hasOwn(entry.shared_link, 'accessed')).toBe(true);
  });

  it('passes verify’s judging of answer bodies', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 10, seed: 4, timeoutMs: 5_000 });
    expect(report.checks.find((check) => check.id === 'response-schema-conformance')?.status).toBe('passed');
  }, 60_000);
});
