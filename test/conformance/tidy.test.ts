/**
 * verify deletes what its cases created, where the document has a delete (contracts/runner/tidy.ts):
 * a correct target holds nothing of the run afterwards, and --keep-created leaves it all there.
 * The deletes are housekeeping: neither judged nor counted as cases.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';
import { startDigitalOceanCuts } from './faulty-servers/digitalocean-cuts-server.js';

const documentPath = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Items of every resource the stand-in holds (health's count). */
async function itemsHeld(url: string): Promise<number> {
  const health = (await (await fetch(`${url}/__control/health`)).json()) as { items: number };
  return health.items;
}

const DOCUMENTS = [
  ['the public Plant Store (client-assigned int64 ids)', documentPath('../../spec/plant-store-public.yaml')],
  ['the expanded Petstore (server-assigned ids)', documentPath('../fixtures/documents/petstore-expanded.yaml')],
] as const;

describe('verify leaves the target as it found it', () => {
  // RealWorld declares no 404: an article already deleted (by a lifecycle) is refused with its 422.
  // The report must not list as left behind what a read shows is gone (before: dozens of articles listed, none held).
  it('does not report as left behind an item gone already, where the document refuses it with another error than 404', { timeout: 120_000 }, async () => {
    const spec = documentPath('../fixtures/documents/realworld-conduit.yaml');
    const server = await startServer({ spec, port: 0 });
    try {
      const report = await verify({ target: server.url, spec, runs: 10, seed: 5, stateful: true });
      expect(report.ok).toBe(true);
      const articles = (await (await fetch(`${server.url}/articles?limit=100`)).json()) as { articlesCount: number };
      expect(articles.articlesCount).toBe(0);
      expect((report.leftBehind ?? []).filter((left) => left.resource === 'articles')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  // A lifecycle deletes what it created at its end: tidying it again was a request for nothing, and
  // where the document declares no 404 and no read (the public Plant Store: 400) each such item was
  // listed as left behind though none was (issue 21: 140 such deletes in a default run).
  it('deletes nothing a case deleted itself, so nothing gone is listed as left behind', { timeout: 120_000 }, async () => {
    const spec = DOCUMENTS[0][1];
    const server = await startServer({ spec, port: 0, journalSize: 100_000 });
    try {
      const report = await verify({ target: server.url, spec, token: 'test-token', runs: 30, seed: 7, stateful: true });
      expect(report.ok).toBe(true);
      expect(await itemsHeld(server.url)).toBe(0);
      expect(report.leftBehind ?? []).toEqual([]);
      const journal = (await (await fetch(`${server.url}/__control/journal?limit=100000`)).json()) as Array<{
        method: string;
        response: { body: string };
      }>;
      // A delete of an item no longer held: the stand-in refuses it as not held.
      const ofGone = journal.filter((entry) => entry.method === 'DELETE' && entry.response.body.includes('no plant with id'));
      expect(ofGone).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each(DOCUMENTS)('%s: nothing the run created is left', { timeout: 120_000 }, async (_name, spec) => {
    const server = await startServer({ spec, port: 0 });
    try {
      const report = await verify({ target: server.url, spec, token: 'test-token', runs: 30, seed: 7, stateful: true });
      expect(report.ok).toBe(true);
      expect(await itemsHeld(server.url)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it.each(DOCUMENTS)('%s: --keep-created leaves what the run created', { timeout: 120_000 }, async (_name, spec) => {
    const server = await startServer({ spec, port: 0 });
    try {
      const report = await verify({ target: server.url, spec, token: 'test-token', runs: 30, seed: 7, stateful: true, keepCreated: true });
      expect(report.ok).toBe(true);
      expect(await itemsHeld(server.url)).toBeGreaterThan(30);
    } finally {
      await server.close();
    }
  });

  it('does not count its deletes as cases, and a delete case takes the item a create case made', { timeout: 120_000 }, async () => {
    const spec = DOCUMENTS[0][1];
    /** Per method, the requests the target saw that the report did not judge as cases (no-server-errors judges every answer). */
    const uncounted: Array<Record<'POST' | 'DELETE', number>> = [];
    for (const keepCreated of [true, false]) {
      const server = await startServer({ spec, port: 0, journalSize: 100_000 });
      try {
        const report = await verify({ target: server.url, spec, token: 'test-token', runs: 20, seed: 3, keepCreated });
        const journal = (await (await fetch(`${server.url}/__control/journal?limit=100000`)).json()) as Array<{ method: string }>;
        const judged = (method: string) =>
          report.coverage.filter((row) => row.check === 'no-server-errors' && row.operation.startsWith(`${method} `)).reduce((sum, row) => sum + row.cases, 0);
        const sent = (method: string) => journal.filter((entry) => entry.method === method).length;
        uncounted.push({ POST: sent('POST') - judged('POST'), DELETE: sent('DELETE') - judged('DELETE') });
      } finally {
        await server.close();
      }
    }
    const [kept, tidied] = uncounted as [Record<'POST' | 'DELETE', number>, Record<'POST' | 'DELETE', number>];
    // Kept: nothing is deleted but by the cases; tidied: every item a case left is deleted, and not judged.
    expect(kept.DELETE).toBe(0);
    expect(tidied.DELETE).toBeGreaterThan(20);
    // Creates made only for a delete case to delete: each makes its own where items are kept; where they are
    // tidied, most take the item a create case was done with instead (item-supply.ts).
    expect(kept.POST).toBeGreaterThan(20);
    expect(tidied.POST).toBeLessThan(kept.POST / 2);
  });
});

describe('verify tidies what a case made under an item before that item', () => {
  // DigitalOcean's shape: a user made under a cluster the run made for the case. The cluster was
  // deleted first and the user's delete after it: a server that refuses to delete a cluster with
  // users (409) kept the cluster and its user, and the report listed the cluster as left behind.
  it('a server that refuses to delete a parent with children holds nothing afterwards, and nothing is reported', { timeout: 120_000 }, async () => {
    const spec = documentPath('../fixtures/documents/digitalocean-cuts.yaml');
    const server = await startDigitalOceanCuts(undefined, { refuseBusyCluster: true });
    try {
      const report = await verify({ target: server.url, spec, runs: 20, seed: 1, stateful: true, timeoutMs: 5_000 });
      const clusters = (await (await fetch(`${server.url}/v2/databases`, { headers: { authorization: 'Bearer t' } })).json()) as { databases: unknown[] };
      expect({ left: report.leftBehind ?? [], held: clusters.databases.length }).toEqual({ left: [], held: 0 });
      expect(report.ok).toBe(true);
    } finally {
      await server.close();
    }
  });
});
