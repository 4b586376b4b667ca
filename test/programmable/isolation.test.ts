import { describe, expect, it } from 'vitest';
import { postPlant, serverFor, plantText } from '../server/helpers.js';
import { tenantOfToken } from '../../src/store/tenants.js';

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

describe('--isolate-by-token', () => {
  const isolated = serverFor({ isolateByToken: true });
  const shared = serverFor();

  it('gives every token its own plants: the same id is new for each', async () => {
    const body = plantText({ name: 'Fern', id: 1 });
    expect((await postPlant(isolated.current.url, body, as('job-a'))).status).toBe(200);
    expect((await postPlant(isolated.current.url, body, as('job-b'))).status).toBe(200);
    expect((await postPlant(isolated.current.url, body, as('job-a'))).json).toMatchObject({ error: 409 });
    expect((await (await isolated.current.storeOf('job-a')).list({ limit: 1_000_000 })).plants).toHaveLength(1);
    expect((await (await isolated.current.storeOf('job-b')).list({ limit: 1_000_000 })).plants).toHaveLength(1);
    expect(await isolated.current.store.count()).toBe(0);
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
