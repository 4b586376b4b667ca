import { describe, expect, test } from 'vitest';
import { controlTenant } from '../../src/control/bind-control.js';
import { ErrorCode } from '../../src/core/errors.js';
import { startServer } from '../../src/index.js';
import { SHARED_TENANT, tenantOfToken } from '../../src/store/tenants.js';
import { controlHarness, journalRecord, plantsOf } from '../support/control.js';
import { send } from '../support/server.js';

describe('admin token', () => {
  test('with one configured, only it opens the control API', async () => {
    const control = await controlHarness({ adminToken: 'admin-secret' });
    const missing = await control.refusal('listJournal', 'authorize');
    expect(missing).toMatchObject({ error: ErrorCode.unauthorized, headers: { 'www-authenticate': expect.stringMatching(/^Bearer/) } });
    // An API token (any non-empty bearer is accepted by the API when none are configured) is not enough.
    expect(await control.refusal('listPlants', 'authorize', { headers: { authorization: 'Bearer test-token' } })).toMatchObject({
      error: ErrorCode.unauthorized,
    });
    expect(await control.refusal('resetPlants', 'authorize', { headers: { authorization: 'Basic YWRtaW4tc2VjcmV0' } })).toMatchObject({
      error: ErrorCode.unauthorized,
    });
    await control.answer('getHealth', 200, { headers: { authorization: 'Bearer admin-secret' } });
  });

  test('health answers without it, so a readiness probe needs no secret', async () => {
    const control = await controlHarness({ adminToken: 'admin-secret' });
    const reply = await control.answer('getHealth', 200);
    expect(Object.keys(reply.json as object).sort()).toEqual(['document', 'items', 'status', 'tenants', 'uptimeMs']);
  });

  test('every other operation is guarded, not only some', async () => {
    const control = await controlHarness({ adminToken: 'admin-secret' });
    for (const operationId of [
      'listPlants',
      'seedPlants',
      'resetPlants',
      'getPlant',
      'deletePlant',
      'listJournal',
      'exportJournalHar',
      'clearJournal',
      'listFaults',
      'addFault',
      'clearFaults',
      'deleteFault',
    ]) {
      const reply = await control.call(operationId, { path: { id: '1' }, body: '[]' });
      expect(reply.stage, operationId).toBe('authorize');
    }
  });

  test('without one the control API is open and ignores credentials', async () => {
    const control = await controlHarness();
    await control.answer('getHealth', 200);
    await control.answer('getHealth', 200, { headers: { authorization: 'Bearer anything' } });
  });

  test('answers a refused admin token 401 even with --auth-status 400', async () => {
    const server = await startServer({ port: 0, adminToken: 'admin', authStatus: 400 });
    try {
      expect((await send(`${server.url}/__control/journal`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('tenant', () => {
  test('without isolation every control request acts on the shared tenant, whatever it sends', async () => {
    expect(controlTenant({ 'plantstore-token': 'alice' }, false)).toBe(SHARED_TENANT);
    const control = await controlHarness();
    await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"a"}]', headers: { 'plantstore-token': 'alice' } });
    expect(control.context.stores.tenants()).toEqual([SHARED_TENANT]);
  });

  test('with isolation the plantstore-token header names the tenant by its API token; none is the shared tenant', async () => {
    expect(controlTenant({ 'plantstore-token': ' alice ' }, true)).toBe(tenantOfToken('alice'));
    expect(controlTenant({}, true)).toBe(SHARED_TENANT);
    expect(controlTenant({ 'plantstore-token': '' }, true)).toBe(SHARED_TENANT);

    const control = await controlHarness({ isolateByToken: true });
    const alice = { 'plantstore-token': 'alice' };
    await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"alice plant"}]', headers: alice });
    await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"shared plant"}]' });
    expect((await control.answer('listPlants', 200, { headers: alice })).text).toBe('[{"id":1,"name":"alice plant"}]');
    expect((await control.answer('getPlant', 200, { path: { id: '1' } })).text).toBe('{"id":1,"name":"shared plant"}');
    expect(await control.refusal('getPlant', 'handle', { path: { id: '1' }, headers: { 'plantstore-token': 'bob' } })).toMatchObject({
      error: ErrorCode.notFound,
    });

    await control.answer('resetPlants', 204, { headers: alice });
    expect(await (await plantsOf(control.context, tenantOfToken('alice'))).count()).toBe(0);
    expect(await (await plantsOf(control.context, SHARED_TENANT)).count()).toBe(1);
  });

  test('with isolation journal listing and clearing see only the tenant named', async () => {
    const control = await controlHarness({ isolateByToken: true });
    const alice = tenantOfToken('alice');
    control.context.journal.record(journalRecord({ tenant: alice, path: '/plants' }));
    control.context.journal.record(journalRecord({ tenant: tenantOfToken('bob'), path: '/plants' }));

    const listed = await control.answer('listJournal', 200, { headers: { 'plantstore-token': 'alice' } });
    expect(listed.json).toMatchObject([{ tenant: alice }]);
    expect(listed.json).toHaveLength(1);
    const har = await control.answer('exportJournalHar', 200, { headers: { 'plantstore-token': 'alice' } });
    expect(har.json).toMatchObject({ log: { entries: [{ _tenant: alice }] } });
    // An admin naming no tenant sees every tenant's requests, each entry naming its tenant by digest.
    expect((await control.answer('listJournal', 200)).json).toMatchObject([{ tenant: alice }, { tenant: tenantOfToken('bob') }]);

    await control.answer('clearJournal', 204, { headers: { 'plantstore-token': 'alice' } });
    expect(control.context.journal.entries().map((entry) => entry.tenant)).toEqual([tenantOfToken('bob')]);
  });
});
