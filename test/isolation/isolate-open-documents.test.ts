/**
 * --isolate-by-token on a document that declares no security (issue 17, item 1): the banner said
 * "one store per bearer token" while token BBB read what AAA created and --data-dir wrote only
 * shared.jsonl. Isolation is the harness's feature, not the document's auth: a bearer token sent
 * isolates anyway; a request without one uses the shared store, and the banner says so.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnServe, type ServeProcess } from '../persistence/cli-server.js';

const PETS = fileURLToPath(new URL('../fixtures/documents/pets-crud.yaml', import.meta.url));
const as = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
});

describe('--isolate-by-token on a document without security', () => {
  const dirs: string[] = [];
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('keeps each bearer token to its own store, on disk too; a request without a token sees the shared one', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'plantstore-isolate-open-'));
    dirs.push(dataDir);
    const server = await spawnServe(['--spec', PETS, '--isolate-by-token', '--data-dir', dataDir]);
    servers.push(server);
    expect(server.output()).toMatch(/one store per bearer token \(requests that send none share one store\)/);

    const created = await fetch(`${server.url}/pets`, { method: 'POST', headers: as('AAA'), body: JSON.stringify({ name: 'Rex' }) });
    expect(created.status).toBeLessThan(300);
    const { id } = (await created.json()) as { id: number };
    expect((await fetch(`${server.url}/pets/${id}`, { headers: as('AAA') })).status).toBe(200);
    expect((await fetch(`${server.url}/pets/${id}`, { headers: as('BBB') })).status).toBe(404);
    expect((await fetch(`${server.url}/pets/${id}`, { headers: as() })).status).toBe(404);
    const listedByB = (await (await fetch(`${server.url}/pets`, { headers: as('BBB') })).json()) as unknown[];
    expect(listedByB).toEqual([]);

    const shared = await fetch(`${server.url}/pets`, { method: 'POST', headers: as(), body: JSON.stringify({ name: 'Shared' }) });
    expect(shared.status).toBeLessThan(300);
    const sharedId = ((await shared.json()) as { id: number }).id;
    expect((await fetch(`${server.url}/pets/${sharedId}`, { headers: as() })).status).toBe(200);

    // The data dir holds the shared store and AAA's: never only shared.jsonl.
    const files = await readdir(dataDir, { recursive: true });
    expect(files.filter((name) => name.endsWith('.jsonl')).length, files.join(', ')).toBeGreaterThanOrEqual(2);
  });
});
