/** The control API of every resource, over HTTP: a second resource beside plants, and a nested one. */
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/core/errors.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { INT64_MAX, INT64_MIN } from '../../src/core/json/int64.js';
import type { Resource, ResourceModel } from '../../src/core/resources/model.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { send, serverFor } from '../support/server.js';
import { startServer } from '../../src/server/start-server.js';

const PETS_SPEC = 'test/fixtures/pets.yaml';
const BIG = '9007199254740993'; // 2^53 + 1

/** pets.yaml's resources as inference would give them: plants (createPlant), pets (server-assigned int64 ids), and owners' pets (nested, string names). */
async function petsModel(): Promise<ResourceModel> {
  const document = await loadDocument(PETS_SPEC);
  const getPet = document.operations.find((operation) => operation.iid === 'getPet');
  const petSchema = getPet?.responses.find((response) => response.code === '200')?.contents?.[0]?.schema;
  if (!petSchema) throw new Error('pets.yaml has no Pet');
  const pets: Resource = {
    name: 'pets',
    collectionPath: '/pets',
    itemPath: '/pets/{petId}',
    parentParameters: [],
    identifier: { parameter: 'petId', property: 'id', assignedBy: 'server', type: { kind: 'integer', minimum: INT64_MIN, maximum: INT64_MAX } },
    operations: { read: { method: 'get', path: '/pets/{petId}', name: 'getPet' }, list: { method: 'get', path: '/pets', name: 'listPets' } },
    itemSchema: petSchema,
    webhooks: [],
    source: 'inferred',
  };
  const ownersPets: Resource = {
    ...pets,
    name: 'owners.pets',
    collectionPath: '/owners/{ownerId}/pets',
    itemPath: '/owners/{ownerId}/pets/{name}',
    parentParameters: ['ownerId'],
    identifier: { parameter: 'name', property: 'name', assignedBy: 'client', type: { kind: 'string' } },
    createSchema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  };
  return { resources: [...inferResources(document).resources.filter((resource) => resource.name === 'plants'), pets, ownersPets], notes: [] };
}

const server = serverFor({ spec: PETS_SPEC, resourceModel: await petsModel(), seedItems: { pets: [{ id: 3, name: 'Seeded' }] } });
const items = (resource: string, rest = '') => `${server.current.url}/__control/resources/${resource}/items${rest}`;
const post = (url: string, body: string) => send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('seed data for every resource', () => {
  test("a seed's server-assigned ids are taken as given, and allocation moves past them", async () => {
    const pets = (await server.current.stores.forTenant('shared')).collection('pets');
    expect(await pets.get(3n)).toBeDefined();
    await post(items('pets'), '[{"id":40,"name":"high"}]');
    expect(await pets.allocate()).toBe(41n);
  });
});

describe('/__control/resources/{resource}/items', () => {
  test('seeds, lists, reads and deletes the items of a second resource, ids exact, apart from plants', async () => {
    await send(items('pets'), { method: 'DELETE' });
    const seeded = await post(items('pets'), `[{"id":1,"name":"Rex","species":"dog"},{"id":${BIG},"name":"Tom"}]`);
    expect(seeded.status).toBe(200);
    expect(seeded.text).toBe('{"created":2,"duplicates":[]}');
    const listed = await send(items('pets'));
    expect(listed.text).toBe(`[{"id":1,"name":"Rex","species":"dog"},{"id":${BIG},"name":"Tom"}]`);
    expect((await send(items('pets', '?limit=1'))).headers['plantstore-next-cursor']).toBeDefined();
    expect((await send(items('pets', `/${BIG}`))).text).toBe(`{"id":${BIG},"name":"Tom"}`);
    // The plants are another collection: a pet's id is no plant's.
    expect((await send(`${server.current.url}/__control/plants/1`)).status).toBe(404);
    expect((await send(items('pets', '/1'), { method: 'DELETE' })).status).toBe(204);
    expect((await send(items('pets', '/1'))).json).toEqual({ error: ErrorCode.notFound, message: 'no item of pets has id 1' });
    expect((await send(items('pets', '/1'), { method: 'DELETE' })).status).toBe(404);
    expect((await post(items('pets'), `[{"id":${BIG},"name":"again"}]`)).text).toBe(`{"created":0,"duplicates":[${BIG}]}`);
  });

  test('the plants are the plants collection, under both paths', async () => {
    await post(`${server.current.url}/__control/plants`, '[{"id":5,"name":"Fern"}]');
    expect((await send(items('plants', '/5'))).text).toBe('{"id":5,"name":"Fern"}');
    expect((await send(items('plants', '/5'), { method: 'DELETE' })).status).toBe(204);
    expect((await send(`${server.current.url}/__control/plants/5`)).status).toBe(404);
  });

  test('a seed with one item its schema refuses stores none', async () => {
    await send(items('pets'), { method: 'DELETE' });
    const refused = await post(items('pets'), '[{"id":20,"name":"fine"},{"id":21,"name":5}]');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: ErrorCode.schemaViolation, message: expect.stringContaining('pets[1].name must be a string') });
    expect((await send(items('pets'))).text).toBe('[]');
  });

  test('an unknown resource and an id not of the identifier type are refused, naming what is served', async () => {
    const unknown = await send(items('owls'));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('plants, pets, owners.pets');
    const badId = await send(items('pets', '/abc'));
    expect(badId.status).toBe(400);
    expect(badId.text).toContain('from -9223372036854775808 to 9223372036854775807');
  });

  test("a nested resource's collection is chosen by its parent parameter; each parent has its own items", async () => {
    expect((await send(items('owners.pets'))).status).toBe(400);
    expect((await post(items('owners.pets', '?ownerId=7'), '[{"name":"Rex"}]')).text).toBe('{"created":1,"duplicates":[]}');
    expect((await post(items('owners.pets', '?ownerId=8'), '[{"name":"Rex"},{"name":"1"}]')).text).toBe('{"created":2,"duplicates":[]}');
    expect((await send(items('owners.pets', '?ownerId=7'))).text).toBe('[{"name":"Rex"}]');
    expect((await send(items('owners.pets', '/1?ownerId=8'))).text).toBe('{"name":"1"}');
    expect((await send(items('owners.pets', '/Rex?ownerId=7'), { method: 'DELETE' })).status).toBe(204);
    expect((await send(items('owners.pets', '?ownerId=7'))).text).toBe('[]');
    expect((await send(items('owners.pets', '?ownerId=8'))).text).toBe('[{"name":"Rex"},{"name":"1"}]');
  });
});

describe('/__control/plants: the routes of /__control/resources/plants/items', () => {
  test('answer alike: a seed through one is listed, read and removed through the other, every property kept', async () => {
    const plants = `${server.current.url}/__control/plants`;
    await send(plants, { method: 'DELETE' });
    expect((await post(plants, `[{"name":"Fern","id":${BIG},"origin":"Chile"},{"id":6,"name":"Ivy"}]`)).text).toBe('{"created":2,"duplicates":[]}');
    const listed = await send(items('plants'));
    // The identifier first, as plants were always answered; every other property as given.
    expect(listed.text).toBe(`[{"id":${BIG},"name":"Fern","origin":"Chile"},{"id":6,"name":"Ivy"}]`);
    expect((await send(plants)).text).toBe(listed.text);
    expect((await send(`${plants}/${BIG}`)).text).toBe((await send(items('plants', `/${BIG}`))).text);
    expect((await send(items('plants', '/6'), { method: 'DELETE' })).status).toBe(204);
    expect((await send(`${plants}/6`)).json).toEqual({ error: ErrorCode.notFound, message: 'no plant has id 6' });
    expect((await send(items('plants', '/6'))).json).toEqual({ error: ErrorCode.notFound, message: 'no item of plants has id 6' });
  });

  test('still hold plants when the served document has no plants resource', async () => {
    const bare = await startServer({ port: 0, spec: PETS_SPEC, resourceModel: { resources: [], notes: [] } });
    try {
      expect((await post(`${bare.url}/__control/plants`, `[{"id":${BIG},"name":"Fern"}]`)).text).toBe('{"created":1,"duplicates":[]}');
      expect((await send(`${bare.url}/__control/plants/${BIG}`)).text).toBe(`{"id":${BIG},"name":"Fern"}`);
      expect((await send(`${bare.url}/__control/resources/plants/items`)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
