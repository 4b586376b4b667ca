/**
 * The run learns which ids the target takes (contracts/runner/evidence.ts) before the cases that send
 * ids; the cases that send none (a list) go meanwhile in the other connections (contracts/runner/sample.ts),
 * so the target's first, slowest answers are not waited for one by one (issue 21: verify's speed).
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
  readonly response: { readonly body: string };
}

async function journalOf(url: string): Promise<Entry[]> {
  const journal = (await (await fetch(`${url}/__control/journal?limit=100000`)).json()) as Entry[];
  return [...journal].sort((a, b) => a.sequence - b.sequence);
}

describe('verify sends the cases that need nothing learnt while it learns', () => {
  it('lists are sent before the probe of a taken id is answered; with one connection, after', { timeout: 120_000 }, async () => {
    const firstListBeforeProbe: boolean[] = [];
    for (const concurrency of [4, 1]) {
      const server = await startServer({ spec, port: 0, journalSize: 100_000 });
      try {
        const report = await verify({ target: server.url, spec, token: 'test-token', runs: 10, seed: 3, stateful: true, concurrency });
        expect(report.ok).toBe(true);
        const entries = await journalOf(server.url);
        // The evidence's second probe: the same fresh id again, refused as taken.
        const probe = entries.findIndex((entry) => entry.method === 'POST' && entry.response.body.includes('already exists'));
        const list = entries.findIndex((entry) => entry.method === 'GET' && entry.path === '/plants');
        expect(probe).toBeGreaterThan(-1);
        expect(list).toBeGreaterThan(-1);
        firstListBeforeProbe.push(list < probe);
      } finally {
        await server.close();
      }
    }
    // --concurrency 1 keeps one request in flight: learning holds the one slot.
    expect(firstListBeforeProbe).toEqual([true, false]);
  });
});
