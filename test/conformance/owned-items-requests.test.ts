/**
 * A write case gets an item of its own only where it will use it (contracts/runner/owned-items.ts):
 * a DELETE whose drawn id is the invalid part keeps that id, so an item created for it would only be
 * created and deleted again, two requests for nothing (issue 21: verify's requests per case).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';

const spec = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));

interface Entry {
  readonly sequence: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly request: { readonly body: string };
}

describe('verify creates an item for a write case only when the case names it', () => {
  it('no item is created for a DELETE about an invalid id (one connection, so each create sits beside its case)', { timeout: 120_000 }, async () => {
    const server = await startServer({ spec, port: 0, journalSize: 100_000 });
    try {
      const report = await verify({ target: server.url, spec, token: 'test-token', runs: 40, seed: 3, concurrency: 1 });
      expect(report.ok).toBe(true);
      const journal = (await (await fetch(`${server.url}/__control/journal?limit=100000`)).json()) as Entry[];
      const entries = [...journal].sort((a, b) => a.sequence - b.sequence);
      const itemPath = (entry: Entry | undefined) => (entry?.method === 'DELETE' ? /^\/plants\/([^/]*)$/.exec(entry.path)?.[1] : undefined);
      // An id that is not an integer at all: surely the case's own invalid id, never an item's.
      const invalidId = (entry: Entry | undefined) => {
        const named = itemPath(entry);
        return named !== undefined && !/^-?\d+$/.test(decodeURIComponent(named));
      };
      let unused = 0;
      let invalidIdDeletes = 0;
      for (const [index, entry] of entries.entries()) {
        if (invalidId(entry)) invalidIdDeletes += 1;
        if (entry.method !== 'POST' || entry.status >= 300) continue;
        // The id it was created with, exactly (the client sends it; int64 ids may exceed 2^53).
        const created = /"id"\s*:\s*(-?\d+)/.exec(entry.request.body)?.[1];
        const [next, after] = [entries[index + 1], entries[index + 2]];
        // Created, then a DELETE of an invalid id, then the created item deleted: the item went unused.
        if (created !== undefined && invalidId(next) && itemPath(after) === created) unused += 1;
      }
      expect(invalidIdDeletes).toBeGreaterThan(5);
      expect(unused).toBe(0);
    } finally {
      await server.close();
    }
  });
});
