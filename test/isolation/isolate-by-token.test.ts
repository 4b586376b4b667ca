import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { postPlant, send, serverFor, plantText } from '../support/server.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { storedPlants } from '../support/plants.js';

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

describe('--isolate-by-token', () => {
  const isolated = serverFor({ isolateByToken: true });
  const shared = serverFor();

  it('gives every token its own plants: the same id is new for each', async () => {
    const body = plantText({ name: 'Fern', id: 1 });
    expect((await postPlant(isolated.current.url, body, as('job-a'))).status).toBe(200);
    expect((await postPlant(isolated.current.url, body, as('job-b'))).status).toBe(200);
    expect((await postPlant(isolated.current.url, body, as('job-a'))).json).toMatchObject({ error: 409 });
    expect((await (await storedPlants(isolated.current, tenantOfToken('job-a'))).list({ limit: 1_000_000 })).plants).toHaveLength(1);
    expect((await (await storedPlants(isolated.current, tenantOfToken('job-b'))).list({ limit: 1_000_000 })).plants).toHaveLength(1);
    expect(await (await storedPlants(isolated.current)).count()).toBe(0);
  });

  it('gives every token its own journal view', async () => {
    await postPlant(isolated.current.url, plantText({ name: 'Only A', id: 2 }), as('job-a'));
    const ofB = isolated.current.journal.entries({ tenant: tenantOfToken('job-b') });
    expect(ofB.every((entry) => !entry.request.body.includes('Only A'))).toBe(true);
    expect(isolated.current.journal.received('createPlant', { name: 'Only A' }, tenantOfToken('job-a'))).toHaveLength(1);
    expect(isolated.current.journal.received('createPlant', { name: 'Only A' }, tenantOfToken('job-b'))).toHaveLength(0);
  });

  it('without isolation every token shares one store', async () => {
    const body = plantText({ name: 'Fern', id: 1 });
    expect((await postPlant(shared.current.url, body, as('job-a'))).status).toBe(200);
    expect((await postPlant(shared.current.url, body, as('job-b'))).json).toMatchObject({ error: 409 });
  });

  it('names tenants by a digest, never the token', () => {
    expect(tenantOfToken('job-a')).not.toContain('job-a');
    expect(tenantOfToken('job-a')).toBe(tenantOfToken('job-a'));
    expect(tenantOfToken('job-a')).not.toBe(tenantOfToken('job-b'));
  });
});

describe('--max-tenants', () => {
  const SEED = [{ id: 1n, name: 'Seed fern' }];
  const post = (url: string, token: string, id: number, name = `plant ${id}`) => postPlant(url, plantText({ name, id }), as(token));
  const health = async (url: string) => (await send(`${url}/__control/health`)).json as { tenants: number; items: number };
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  async function threeTenants(dataDir: string | undefined) {
    const lines: string[] = [];
    const server = await startServer({
      port: 0,
      isolateByToken: true,
      maxTenants: 2,
      seed: SEED,
      logLevel: 'warn',
      log: (line) => lines.push(line),
      ...(dataDir ? { dataDir } : {}),
    });
    for (const token of ['job-a', 'job-b', 'job-c']) expect((await post(server.url, token, 10)).status).toBe(200);
    // job-a was used least recently: it goes, the shared tenant never does.
    expect(server.stores.tenants().sort()).toEqual(['shared', tenantOfToken('job-b'), tenantOfToken('job-c')].sort());
    expect(await health(server.url)).toMatchObject({ tenants: 3, items: 5 });
    return { server, lines };
  }

  it('without --data-dir evicts the least recently used tenant, says so at warn, and it starts again from the seed', async () => {
    const { server, lines } = await threeTenants(undefined);
    try {
      expect(lines.join('\n')).toContain(`tenant ${tenantOfToken('job-a')} evicted`);
      expect(lines.join('\n')).not.toContain('job-a');
      expect((await post(server.url, 'job-a', 10)).status).toBe(200);
      expect((await post(server.url, 'job-a', 1)).json).toMatchObject({ error: 409 });
      expect(server.stores.tenants()).not.toContain(tenantOfToken('job-b'));
    } finally {
      await server.close();
    }
  });

  it('with --data-dir reloads an evicted tenant with every plant it had', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'plantstore-tenants-'));
    dirs.push(dataDir);
    const { server } = await threeTenants(dataDir);
    try {
      expect((await post(server.url, 'job-a', 10, 'again')).json).toMatchObject({ error: 409 });
      const listed = await send(`${server.url}/__control/plants`, { headers: { 'plantstore-token': 'job-a' } });
      expect(listed.text).toBe('[{"id":1,"name":"Seed fern"},{"id":10,"name":"plant 10"}]');
      expect(await health(server.url)).toMatchObject({ tenants: 3, items: 5 });
    } finally {
      await server.close();
    }
  });
});

describe('isolation with seed plants', () => {
  const server = serverFor({ isolateByToken: true, seed: [{ id: 1n, name: 'Fern' }] });

  it('gives every tenant the seed plants', async () => {
    expect((await postPlant(server.current.url, plantText({ name: 'again', id: 1 }), as('job-a'))).json).toMatchObject({ error: 409 });
    expect(await (await storedPlants(server.current, tenantOfToken('job-b'))).get(1n)).toMatchObject({ name: 'Fern' });
  });
});
