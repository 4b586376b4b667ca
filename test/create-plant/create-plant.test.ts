/** Create Plant: a valid NewPlant is stored and answered with the Plant; ids are unique. */
import { describe, expect, it } from 'vitest';
import { expectCreated, expectError, postPlant, plantText, serverFor } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

describe('POST /plants with a valid NewPlant (no tokens configured)', () => {
  const server = serverFor();

  it('answers 200 with exactly {name, tag} (no id) and stores the plant', async () => {
    const reply = await postPlant(server.current.url, { name: 'Monstera deliciosa', tag: 'aroid', id: 1 });
    expectCreated(reply, { name: 'Monstera deliciosa', tag: 'aroid' });
    expect(reply.json).toEqual({ name: 'Monstera deliciosa', tag: 'aroid' });
    expect(await (await storedPlants(server.current)).get(1n)).toEqual({ id: 1n, name: 'Monstera deliciosa', tag: 'aroid' });
  });

  it('answers without tag when none was sent, and stores none', async () => {
    const reply = await postPlant(server.current.url, { name: 'Golden barrel cactus', id: 2 });
    expectCreated(reply, { name: 'Golden barrel cactus' });
    expect(Object.keys(reply.json as object)).toEqual(['name']);
    expect(await (await storedPlants(server.current)).get(2n)).toEqual({ id: 2n, name: 'Golden barrel cactus' });
  });

  it('accepts any non-empty bearer token when none are configured', async () => {
    expect(server.current.tokenPolicy).toBe('any-non-empty');
    const reply = await postPlant(
      server.current.url,
      { name: 'Fern', id: 3 },
      { authorization: 'Bearer whatever-a-client-sends', 'content-type': 'application/json' },
    );
    expectCreated(reply, { name: 'Fern' });
  });

  it('lists stored plants in the order they were created', async () => {
    await postPlant(server.current.url, { name: 'Later', id: 5 });
    await postPlant(server.current.url, { name: 'Earlier id, created last', id: 4 });
    const ids = (await (await storedPlants(server.current)).list({ limit: 1_000_000 })).plants.map((plant) => plant.id);
    expect(ids.slice(-2)).toEqual([5n, 4n]);
    expect((await (await storedPlants(server.current)).list({ limit: 1_000_000 })).plants).toContainEqual({ id: 1n, name: 'Monstera deliciosa', tag: 'aroid' });
  });

  it('stores a name with multibyte characters exactly, even when a chunk boundary splits one', async () => {
    const bytes = Buffer.from(plantText({ name: '€uro 🌱 Monstera', id: 8 }));
    const cut = bytes.indexOf(0xe2) + 1;
    async function* split(): AsyncGenerator<Buffer> {
      yield bytes.subarray(0, cut);
      yield bytes.subarray(cut);
    }
    expectCreated(await postPlant(server.current.url, split()), { name: '€uro 🌱 Monstera' });
    expect((await (await storedPlants(server.current)).get(8n))?.name).toBe('€uro 🌱 Monstera');
  });

  it('keeps extra properties out of the store (NewPlant allows them, the Plant has name and tag only)', async () => {
    const reply = await postPlant(server.current.url, { name: 'Pothos', id: 6, colour: 'green' });
    expectCreated(reply, { name: 'Pothos' });
    expect(await (await storedPlants(server.current)).get(6n)).toEqual({ id: 6n, name: 'Pothos' });
  });
});

describe('ids are unique', () => {
  const server = serverFor();

  it('refuses the same id again with 400 and Error 409 naming the id, leaving the store unchanged', async () => {
    expectCreated(await postPlant(server.current.url, { name: 'First', id: 424242 }), { name: 'First' });
    const before = await (await storedPlants(server.current)).count();

    const reply = await postPlant(server.current.url, { name: 'Second', tag: 'other', id: 424242 });
    const message = expectError(reply, 400, 409);
    expect(message).toContain('424242');
    expect(await (await storedPlants(server.current)).get(424242n)).toEqual({ id: 424242n, name: 'First' });
    expect(await (await storedPlants(server.current)).count()).toBe(before);
  });

  it('lets exactly one of 20 concurrent creates of one id win; the other 19 get Error 409', async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => postPlant(server.current.url, plantText({ name: `racer ${index}`, id: 777 }))));
    const outcomes = replies.map((reply) => (reply.status === 200 ? 'created' : `${reply.status}/${(reply.json as { error?: number }).error}`));
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === '400/409')).toHaveLength(19);
    const winner = replies.findIndex((reply) => reply.status === 200);
    expect(await (await storedPlants(server.current)).get(777n)).toEqual({ id: 777n, name: `racer ${winner}` });
  });

  it('counts 1, 1.0 and 1e0 as the same id', async () => {
    expectCreated(await postPlant(server.current.url, '{"name":"one","id":1}'), { name: 'one' });
    expectError(await postPlant(server.current.url, '{"name":"one again","id":1.0}'), 400, 409);
    expectError(await postPlant(server.current.url, '{"name":"one again","id":1e0}'), 400, 409);
    expect((await (await storedPlants(server.current)).get(1n))?.name).toBe('one');
  });
});

describe('echoId: true', () => {
  const server = serverFor({ echoId: true });

  it('adds the id to the Plant, written exactly as digits (not rounded through a double)', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'Golden barrel cactus', id: 9007199254740993n }));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.text).toBe('{"name":"Golden barrel cactus","id":9007199254740993}');
    expect((await (await storedPlants(server.current)).get(9007199254740993n))?.name).toBe('Golden barrel cactus');
  });

  it('keeps the tag and puts the id last', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'Monstera', tag: 'aroid', id: -9223372036854775808n }));
    expect(reply.text).toBe('{"name":"Monstera","tag":"aroid","id":-9223372036854775808}');
  });
});
