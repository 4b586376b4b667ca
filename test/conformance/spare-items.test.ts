/**
 * A DELETE case deletes an item one of the run's valid creates made, where one is spare, instead of
 * making its own and the create's item being deleted by tidying (contracts/runner/spare-items.ts):
 * two requests fewer for each, none judged (issue 21: requests per case). Items the run did not
 * create are untouched, and nothing it created is left.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';

const spec = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));

interface Entry {
  readonly sequence: number;
  readonly method: string;
}

describe('verify hands the items its valid creates made to its DELETE cases', () => {
  it('few creates beyond the counted cases; what it did not create is untouched, and nothing it created is left', { timeout: 120_000 }, async () => {
    const server = await startServer({ spec, port: 0, journalSize: 100_000 });
    try {
      // Items the run did not create: they must be there, unchanged, afterwards.
      const headers = { authorization: 'Bearer test-token', 'content-type': 'application/json' };
      for (const id of [101, 102, 103]) {
        const created = await fetch(`${server.url}/plants`, { method: 'POST', headers, body: JSON.stringify({ id, name: `seeded ${id}` }) });
        expect(created.status).toBe(200);
      }
      const listed = async () => (await fetch(`${server.url}/plants`, { headers })).text();
      const before = await listed();
      const report = await verify({ target: server.url, spec, token: 'test-token', runs: 40, seed: 3, stateful: true });
      expect(report.ok).toBe(true);
      expect(report.leftBehind ?? []).toEqual([]);
      expect(await listed()).toBe(before);
      const journal = (await (await fetch(`${server.url}/__control/journal?limit=100000`)).json()) as Entry[];
      const entries = [...journal].sort((a, b) => a.sequence - b.sequence);
      // POSTs the report judged (no-server-errors judges every answer) against all the target saw.
      const countedPosts = (report.coverage ?? [])
        .filter((row) => row.operation === 'POST /plants' && row.check === 'no-server-errors')
        .reduce((sum, row) => sum + row.cases, 0);
      const posts = entries.filter((entry) => entry.method === 'POST').length;
      const deleteCases = (report.coverage ?? [])
        .filter((row) => row.operation === 'DELETE /plants/{id}' && row.check === 'no-server-errors')
        .reduce((sum, row) => sum + row.cases, 0);
      expect(deleteCases).toBeGreaterThan(40);
      // Creates made only for a DELETE case (the three seeded aside): before, one for each DELETE case that named an item.
      expect(posts - 3 - countedPosts).toBeLessThan(deleteCases / 10);
    } finally {
      await server.close();
    }
  });
});
