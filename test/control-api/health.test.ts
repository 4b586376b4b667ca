import { expect, test } from 'vitest';
import { tenantOfToken } from '../../src/store/tenants.js';
import { controlHarness } from '../support/control.js';

test('getHealth: ok, items across tenants, tenants, uptime and the served document', async () => {
  const control = await controlHarness({ isolateByToken: true, startedAt: Date.now() - 5_000 });
  await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"a"},{"id":2,"name":"b"}]' });
  await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"a"}]', headers: { 'plantstore-token': 'alice' } });
  const reply = await control.answer('getHealth', 200);
  expect(reply.json).toEqual({
    status: 'ok',
    items: 3,
    tenants: 2,
    uptimeMs: expect.any(Number),
    document: { title: 'Plant Store', version: '1.0.0' },
  });
  const { uptimeMs } = reply.json as { uptimeMs: number };
  expect(uptimeMs).toBeGreaterThanOrEqual(5_000);
  expect(uptimeMs).toBeLessThan(60_000);
  expect(control.context.stores.tenants()).toContain(tenantOfToken('alice'));
});

test('getHealth of a fresh stand-in holds nothing', async () => {
  const control = await controlHarness();
  expect((await control.answer('getHealth', 200)).json).toMatchObject({ status: 'ok', items: 0, tenants: 0 });
});

test('getHealth reads counters: it never walks the tenants', async () => {
  const control = await controlHarness({ isolateByToken: true });
  await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"a"}]', headers: { 'plantstore-token': 'alice' } });
  await control.answer('seedPlants', 200, { body: '[{"id":1,"name":"a"},{"id":2,"name":"b"}]', headers: { 'plantstore-token': 'bob' } });
  const stores = control.context.stores as { tenants: () => string[]; forTenant: unknown };
  stores.tenants = () => {
    throw new Error('health walked the tenants');
  };
  stores.forTenant = () => {
    throw new Error('health opened a tenant');
  };
  expect((await control.answer('getHealth', 200)).json).toMatchObject({ items: 3, tenants: 2 });
});
