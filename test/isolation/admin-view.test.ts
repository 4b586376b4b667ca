/**
 * With --isolate-by-token an admin holds no tenant's token: without the plantstore-token header the
 * journal and HAR show every tenant (by digest, never the token), and `?tenant=<digest>` names a
 * tenant's store; an unknown one is a 404 Error, not an empty store.
 */
import { describe, expect, it } from 'vitest';
import { tenantOfToken } from '../../src/store/tenants.js';
import { expectError, JSON_TYPE, plantText, postPlant, send, serverFor } from '../support/server.js';

const ADMIN = { authorization: 'Bearer admin-secret' };

describe('the admin view across tenants', () => {
  const server = serverFor({ isolateByToken: true, adminToken: 'admin-secret' });
  const control = (path: string) => send(`${server.current.url}/__control${path}`, { headers: ADMIN });

  it('shows every tenant in the journal and the HAR, each entry naming its digest and never the token', async () => {
    await postPlant(server.current.url, plantText({ name: 'Alice fern', id: 1 }), { ...JSON_TYPE, authorization: 'Bearer alice-token-secret' });
    await postPlant(server.current.url, plantText({ name: 'Bob fern', id: 1 }), { ...JSON_TYPE, authorization: 'Bearer bob-token-secret' });
    const journal = await control('/journal');
    expect(journal.status).toBe(200);
    expect((journal.json as Array<{ tenant: string }>).map((entry) => entry.tenant)).toEqual([
      tenantOfToken('alice-token-secret'),
      tenantOfToken('bob-token-secret'),
    ]);
    const har = await control('/journal/har');
    expect((har.json as { log: { entries: Array<{ _tenant: string }> } }).log.entries.map((entry) => entry._tenant)).toEqual([
      tenantOfToken('alice-token-secret'),
      tenantOfToken('bob-token-secret'),
    ]);
    for (const text of [journal.text, har.text]) {
      expect(text).not.toContain('alice-token-secret');
      expect(text).not.toContain('bob-token-secret');
    }
    const onlyBob = await control(`/journal?tenant=${tenantOfToken('bob-token-secret')}`);
    expect((onlyBob.json as Array<{ tenant: string }>).map((entry) => entry.tenant)).toEqual([tenantOfToken('bob-token-secret')]);
  });

  it("names a tenant's store with ?tenant=<digest>", async () => {
    const plants = await control(`/plants?tenant=${tenantOfToken('alice-token-secret')}`);
    expect(plants.status).toBe(200);
    expect(plants.json).toEqual([{ id: 1, name: 'Alice fern' }]);
    const one = await control(`/plants/1?tenant=${tenantOfToken('bob-token-secret')}`);
    expect(one.json).toEqual({ id: 1, name: 'Bob fern' });
  });

  it('answers an unknown tenant with a 404 Error, not an empty store', async () => {
    const message = expectError(await control(`/plants?tenant=${tenantOfToken('nobody')}`), 404, 404);
    expect(message).toContain(tenantOfToken('nobody'));
    expectError(await control(`/plants?tenant=not-a-digest`), 400, 422);
  });
});
