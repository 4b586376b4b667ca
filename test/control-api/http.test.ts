/**
 * The control site over real HTTP, composed here from the pipeline's own createRequestHandler
 * and the server's own sites: statuses the pipeline gives the control
 * document's refusals, that control requests are neither journaled nor faulted, and that a
 * fault added over HTTP shapes the next API request.
 */
import { inferResources } from '../../src/core/resources/infer.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import type { ControlContext } from '../../src/control/bind-control.js';
import { operationName } from '../../src/core/openapi/operation.js';
import { createFaults } from '../../src/faults/faults.js';
import { createRequestHandler } from '../../src/http/pipeline.js';
import { createJournal } from '../../src/journal/journal.js';
import { createLogger } from '../../src/log/logger.js';
import { controlSite } from '../../src/server/control-site.js';
import { apiSite } from '../../src/server/sites.js';
import { compileItemChecks } from '../../src/server/item-checks.js';
import { createResourceStores, SHARED_TENANT } from '../../src/store/tenants.js';
import { loadDocuments, plantsOf } from '../support/control.js';

const ADMIN = { authorization: 'Bearer admin-secret' };
const API = { authorization: 'Bearer api-token', 'content-type': 'application/json' };

let server: Server;
let base: string;
let context: ControlContext;

beforeAll(async () => {
  const { control, api } = await loadDocuments();
  const stores = createResourceStores();
  const journal = createJournal();
  const faults = createFaults([], api.operations.map(operationName));
  const resources = inferResources(api);
  context = {
    stores,
    resources,
    checkItem: compileItemChecks(),
    journal,
    faults,
    api,
    adminToken: 'admin-secret',
    isolateByToken: false,
    startedAt: Date.now(),
  };
  const shared = { cors: true, bodyLimitBytes: 1024 * 1024, logger: createLogger('silent') };
  const handler = createRequestHandler(
    {
      api: apiSite(api, {
        ...shared,
        stores,
        journal,
        faults,
        tokens: ['api-token'],
        echoId: false,
        isolateByToken: false,
        authStatus: undefined,
        model: resources,
      }),
      control: controlSite(control, context, { ...shared, allowedHosts: [] }),
      controlPrefix: '/__control',
    },
    shared.logger,
  );
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function send(method: string, path: string, headers: Record<string, string> = ADMIN, body?: string) {
  const response = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body ?? null,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

describe('control API over HTTP', () => {
  test('seed, read one, delete one: 200, 200 with the exact id, 204, then 404 with an Error', async () => {
    const seeded = await send('POST', '/__control/plants', ADMIN, '[{"id":9007199254740993,"name":"Golden barrel cactus"}]');
    expect(seeded).toMatchObject({ status: 200, text: '{"created":1,"duplicates":[]}' });
    expect(await send('GET', '/__control/plants/9007199254740993')).toMatchObject({
      status: 200,
      text: '{"id":9007199254740993,"name":"Golden barrel cactus"}',
    });
    expect((await send('DELETE', '/__control/plants/9007199254740993')).status).toBe(204);
    const absent = await send('GET', '/__control/plants/9007199254740993');
    expect(absent.status).toBe(404);
    expect(JSON.parse(absent.text)).toEqual({ error: 404, message: 'no plant has id 9007199254740993' });
  });

  test('an id that is not an int64 is refused as no identifier: 400 with Error 400 (invalidId)', async () => {
    for (const id of ['abc', '9223372036854775808']) {
      const reply = await send('GET', `/__control/plants/${id}`);
      expect(reply.status, id).toBe(400);
      expect(JSON.parse(reply.text), id).toMatchObject({ error: 400 });
    }
  });

  test('seedPlants honours the plantstore-token header only with isolation; here it seeds the shared store', async () => {
    const reply = await send('POST', '/__control/plants', { ...ADMIN, 'plantstore-token': 'someone' }, '[{"id":77,"name":"shared"}]');
    expect(reply.status).toBe(200);
    expect((await (await plantsOf(context, SHARED_TENANT)).get(77n))?.name).toBe('shared');
  });

  test('a bad body is 400 with Error 422; an unknown control path is 404', async () => {
    const bad = await send('POST', '/__control/faults', ADMIN, '{"kind":"status"}');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ error: 422, message: 'a status fault needs status, from 200 to 599' });
    expect((await send('GET', '/__control/nothing')).status).toBe(404);
  });

  test('the API token does not open the control API; the refusal carries a Bearer challenge', async () => {
    const refused = await send('GET', '/__control/faults', { authorization: 'Bearer api-token' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ error: 401 });
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await send('GET', '/__control/faults')).status).toBe(200);
    // Health alone needs no token: a readiness probe carries no secret.
    expect((await send('GET', '/__control/health', { authorization: 'Bearer api-token' })).status).toBe(200);
  });

  test('a fault added over HTTP shapes the next API request, which the journal records; control requests are not journaled', async () => {
    await send('DELETE', '/__control/journal');
    const added = await send('POST', '/__control/faults', ADMIN, '{"kind":"status","operation":"createPlant","status":503,"times":1}');
    expect(added.status).toBe(201);
    expect((await send('POST', '/plants', API, '{"name":"Monstera","id":1}')).status).toBe(503);
    expect((await send('POST', '/plants', API, '{"name":"Monstera","id":1}')).status).toBe(200);
    expect((await (await plantsOf(context, SHARED_TENANT)).get(1n))?.name).toBe('Monstera');

    const journal = JSON.parse((await send('GET', '/__control/journal?operation=createPlant')).text) as Array<{ status: number; fault?: string }>;
    expect(journal.map((entry) => [entry.status, entry.fault])).toEqual([
      [503, 'status'],
      [200, undefined],
    ]);
    const har = JSON.parse((await send('GET', '/__control/journal/har?limit=1')).text) as { log: { entries: Array<{ request: { url: string } }> } };
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual([`${base}/plants`]);
    expect(context.journal.entries().every((entry) => !entry.path.startsWith('/__control'))).toBe(true);
  });
});
