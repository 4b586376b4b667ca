import { describe, expect, test } from 'vitest';
import { LIST_LIMITS } from '../../src/control/plants.js';
import { ErrorCode } from '../../src/core/errors.js';
import { startServer } from '../../src/server/start-server.js';
import { readRequestJson } from '../../src/core/json/exact-json.js';
import { send } from '../support/server.js';
import { SHARED_TENANT } from '../../src/store/tenants.js';
import { controlHarness, plantsOf } from '../support/control.js';

const BIG = '9007199254740993'; // 2^53 + 1: a Number would read it as ...992
const INT64_MAX = '9223372036854775807';
const SEED = `[{"id":1,"name":"Monstera deliciosa","tag":"aroid"},{"id":${BIG},"name":"Golden barrel cactus"},{"id":${INT64_MAX},"name":"Max"}]`;

describe('seedPlants', () => {
  test('stores the plants with exact ids and answers how many were created', async () => {
    const control = await controlHarness();
    const reply = await control.answer('seedPlants', 200, { body: SEED });
    expect(reply.text).toBe('{"created":3,"duplicates":[]}');
    const store = await plantsOf(control.context, SHARED_TENANT);
    expect((await store.list({ limit: 10 })).plants.map((plant) => plant.id)).toEqual([1n, BigInt(BIG), BigInt(INT64_MAX)]);
    expect(await store.get(1n)).toEqual({ id: 1n, name: 'Monstera deliciosa', tag: 'aroid' });
  });

  test('reports ids already stored, or repeated in the batch, as duplicates and keeps the stored plant', async () => {
    const control = await controlHarness();
    await control.answer('seedPlants', 200, { body: `[{"id":${BIG},"name":"first"}]` });
    const reply = await control.answer('seedPlants', 200, { body: `[{"id":${BIG},"name":"second"},{"id":7,"name":"a"},{"id":7,"name":"b"}]` });
    // Written as digits, not rounded.
    expect(reply.text).toBe(`{"created":1,"duplicates":[${BIG},7]}`);
    expect((await (await plantsOf(control.context, SHARED_TENANT)).get(BigInt(BIG)))?.name).toBe('first');
    expect((await (await plantsOf(control.context, SHARED_TENANT)).get(7n))?.name).toBe('a');
  });

  test('the document refuses a body that is not an array of NewPlant', async () => {
    const control = await controlHarness();
    expect(await control.refusal('seedPlants', 'validate', { body: '{"id":1,"name":"a"}' })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('seedPlants', 'validate', { body: '[{"id":"1","name":"a"}]' })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('seedPlants', 'validate', { body: '[{"id":9223372036854775808,"name":"a"}]' })).toMatchObject({
      message: expect.stringContaining('int64'),
    });
    expect(control.context.stores.tenants()).toEqual([]);
  });
});

describe('listPlants and getPlant', () => {
  test('list the plants in the order stored, ids written exactly', async () => {
    const control = await controlHarness();
    expect((await control.answer('listPlants', 200)).text).toBe('[]');
    await control.answer('seedPlants', 200, { body: SEED });
    const reply = await control.answer('listPlants', 200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.text).toBe(
      `[{"id":1,"name":"Monstera deliciosa","tag":"aroid"},{"id":${BIG},"name":"Golden barrel cactus"},{"id":${INT64_MAX},"name":"Max"}]`,
    );
  });

  test('getPlant answers the plant with this exact id', async () => {
    const control = await controlHarness();
    await control.answer('seedPlants', 200, { body: `[{"id":${BIG},"name":"big"},{"id":9007199254740992,"name":"its neighbour"}]` });
    expect((await control.answer('getPlant', 200, { path: { id: BIG } })).text).toBe(`{"id":${BIG},"name":"big"}`);
    expect((await control.answer('getPlant', 200, { path: { id: '9007199254740992' } })).text).toBe('{"id":9007199254740992,"name":"its neighbour"}');
  });

  test('getPlant refuses an absent id with notFound, naming it', async () => {
    const control = await controlHarness();
    expect(await control.refusal('getPlant', 'handle', { path: { id: '42' } })).toEqual({ error: ErrorCode.notFound, message: 'no plant has id 42' });
  });

  test('a path id that is not an int64 is refused as no identifier (invalidId) by the document or, beyond int64, by the handler', async () => {
    const control = await controlHarness();
    expect(await control.refusal('getPlant', 'validate', { path: { id: 'abc' } })).toMatchObject({ error: ErrorCode.invalidId });
    expect(await control.refusal('getPlant', 'validate', { path: { id: '1.5' } })).toMatchObject({ error: ErrorCode.invalidId });
    const beyond = await control.refusal('getPlant', 'handle', { path: { id: '9223372036854775808' } });
    expect(beyond).toEqual({ error: ErrorCode.invalidId, message: expect.stringContaining('must be an int64 in decimal') });
    expect(beyond.message).toContain('"9223372036854775808"');
    // One reading of int64 text everywhere: "007" is not the canonical 7 (the store's log refuses it too).
    expect(await control.refusal('getPlant', 'handle', { path: { id: '007' } })).toMatchObject({
      error: ErrorCode.invalidId,
      message: expect.stringContaining('not "007"'),
    });
  });

  test('reads do not create a tenant', async () => {
    const control = await controlHarness();
    await control.answer('listPlants', 200);
    await control.refusal('getPlant', 'handle', { path: { id: '1' } });
    expect(control.context.stores.tenants()).toEqual([]);
  });
});

describe('deletePlant and resetPlants', () => {
  test('deletePlant removes one plant (204), so its id can be stored again; a second delete is notFound', async () => {
    const control = await controlHarness();
    await control.answer('seedPlants', 200, { body: SEED });
    const reply = await control.answer('deletePlant', 204, { path: { id: BIG } });
    expect(reply.text).toBe('');
    expect((await (await plantsOf(control.context, SHARED_TENANT)).list({ limit: 1_000_000 })).plants.map((plant) => plant.id)).toEqual([
      1n,
      BigInt(INT64_MAX),
    ]);
    expect(await control.refusal('deletePlant', 'handle', { path: { id: BIG } })).toEqual({ error: ErrorCode.notFound, message: `no plant has id ${BIG}` });
    expect((await control.answer('seedPlants', 200, { body: `[{"id":${BIG},"name":"again"}]` })).text).toBe('{"created":1,"duplicates":[]}');
  });

  test('resetPlants removes every plant (204)', async () => {
    const control = await controlHarness();
    await control.answer('seedPlants', 200, { body: SEED });
    await control.answer('resetPlants', 204);
    expect(await (await plantsOf(control.context, SHARED_TENANT)).count()).toBe(0);
    expect((await control.answer('listPlants', 200)).text).toBe('[]');
  });
});

describe('listPlants pages over HTTP', () => {
  const PLANTS = 2_345;
  /** Creation order is not id order; ids on both sides of 2^53 and at the ends of int64. */
  const idOf = (i: number) => (i % 3 === 0 ? 9007199254740993n + BigInt(i) * 2n : i % 3 === 1 ? -(2n ** 63n) + BigInt(PLANTS - i) : BigInt(PLANTS - i));

  async function seeded() {
    const server = await startServer({ port: 0 });
    const body = `[${Array.from({ length: PLANTS }, (_, i) => `{"id":${idOf(i)},"name":"p${i}"}`).join(',')}]`;
    expect((await send(`${server.url}/__control/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text).toBe(
      `{"created":${PLANTS},"duplicates":[]}`,
    );
    return server;
  }

  function idsIn(text: string): bigint[] {
    const parsed = readRequestJson(text);
    if (!parsed.ok || !Array.isArray(parsed.value)) throw new Error(`not a JSON array: ${text.slice(0, 80)}`);
    return parsed.value.map((plant) => BigInt((plant as { id: number | bigint }).id));
  }

  /** Follows the Link headers from `first`; answers each page's ids and headers. */
  async function follow(url: string, first: string) {
    const pages: { ids: bigint[]; link: string | undefined; cursor: string | undefined }[] = [];
    for (let path: string | undefined = first; path !== undefined;) {
      const reply = await send(`${url}${path}`);
      expect(reply.status).toBe(200);
      const link = reply.headers.link;
      const cursor = reply.headers['plantstore-next-cursor'];
      pages.push({ ids: idsIn(reply.text), link, cursor });
      path = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
      if (link !== undefined) expect(path).toBe(`/__control/plants?limit=${/limit=(\d+)/.exec(first)?.[1] ?? LIST_LIMITS.default}&cursor=${cursor}`);
      if (pages.length > 10) throw new Error('too many pages');
    }
    return pages;
  }

  test('every plant exactly once across pages, in creation order, ids exact; the last page names no next', async () => {
    const server = await seeded();
    try {
      const pages = await follow(server.url, '/__control/plants?limit=1000');
      expect(pages.map((page) => page.ids.length)).toEqual([1000, 1000, 345]);
      expect(pages.map((page) => page.cursor === undefined)).toEqual([false, false, true]);
      expect(pages.flatMap((page) => page.ids)).toEqual(Array.from({ length: PLANTS }, (_, i) => idOf(i)));
      // Without a limit, the default page size.
      expect((await follow(server.url, '/__control/plants')).map((page) => page.ids.length)).toEqual([1000, 1000, 345]);
    } finally {
      await server.close();
    }
  });

  test('a plant deleted between pages is skipped, one created meanwhile comes last; nothing is seen twice', async () => {
    const server = await seeded();
    try {
      const first = await send(`${server.url}/__control/plants?limit=2000`);
      const next = /^<([^>]+)>/.exec(first.headers.link ?? '')?.[1];
      expect(await send(`${server.url}/__control/plants/${idOf(2_100)}`, { method: 'DELETE' })).toMatchObject({ status: 204 });
      expect(
        (
          await send(`${server.url}/__control/plants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '[{"id":77777,"name":"late"}]',
          })
        ).status,
      ).toBe(200);
      const rest = await send(`${server.url}${next}`);
      const ids = [...idsIn(first.text), ...idsIn(rest.text)];
      expect(ids).toEqual([...Array.from({ length: PLANTS }, (_, i) => idOf(i)).filter((id) => id !== idOf(2_100)), 77777n]);
      expect(rest.headers.link).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test('a browser app on another origin can read the next page: Link and Plantstore-Next-Cursor are exposed', async () => {
    const server = await startServer({ port: 0, adminToken: 'admin' });
    try {
      const headers = { authorization: 'Bearer admin', 'content-type': 'application/json', origin: 'http://localhost:5173' };
      await send(`${server.url}/__control/plants`, { method: 'POST', headers, body: '[{"id":1,"name":"a"},{"id":2,"name":"b"}]' });
      const reply = await send(`${server.url}/__control/plants?limit=1`, { headers });
      expect(reply.headers.link).toBeDefined();
      const exposed = (reply.headers['access-control-expose-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['link', 'plantstore-next-cursor']));
    } finally {
      await server.close();
    }
  });

  test('refuses a limit beyond the maximum and a cursor it never gave, naming what to send', async () => {
    const server = await seeded();
    try {
      const tooMany = await send(`${server.url}/__control/plants?limit=${LIST_LIMITS.max + 1}`);
      expect(tooMany.status).toBe(400);
      expect(tooMany.json).toMatchObject({ error: 422 });
      const bogus = await send(`${server.url}/__control/plants?cursor=abc`);
      expect(bogus.status).toBe(400);
      expect(bogus.json).toMatchObject({ error: 422 });
    } finally {
      await server.close();
    }
  });
});
