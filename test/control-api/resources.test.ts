/**
 * GET /__control/resources over HTTP: the resource model the server inferred at start (and the
 * config's `resources` settled), as spec/control-api.yaml's ResourceModel.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument, shippedFile } from '../../src/core/openapi/load-document.js';
import { startServer } from '../../src/index.js';
import { expectConforms } from '../resources/conforms.js';
import { send, serverFor } from '../support/server.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;

describe('GET /__control/resources: the public Plant Store', () => {
  const server = serverFor({ spec: shippedFile('spec/plant-store-public.yaml') });

  it('answers the plants resource: client-assigned int64 id (bounds as strings), roles by operation name, limit, the newPlant webhook', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({
      resources: [
        {
          name: 'plants',
          collectionPath: '/plants',
          itemPath: '/plants/{id}',
          parentParameters: [],
          identifier: {
            parameter: 'id',
            property: 'id',
            assignedBy: 'client',
            type: { kind: 'integer', minimum: '-9223372036854775808', maximum: '9223372036854775807' },
          },
          operations: { create: 'POST /plants', list: 'GET /plants', delete: 'DELETE /plants/{id}' },
          list: { limit: 'limit', filters: [] },
          webhooks: ['newPlant'],
          source: 'inferred',
          // The create form's start (the inspector): the document's first example for createPlant.
          example: { id: 1, name: 'Monstera deliciosa', tag: 'aroid' },
          exampleSource: 'document',
        },
      ],
      notes: [],
    });
    // The same model the programmatic API exposes.
    expect(server.current.resources.resources.map((resource) => resource.name)).toEqual(['plants']);
  });
});

describe('GET /__control/resources: settled by the config, with the notes of what was not', () => {
  const server = serverFor({ spec: `${FIXTURES}ambiguous.yaml`, resources: { '/things': { id: 'code', name: 'widgets' } }, adminToken: 'admin' });

  it('lists the config-settled and extension-settled resources and the ambiguous note left', async () => {
    const reply = await send(`${server.current.url}/__control/resources`, { headers: { authorization: 'Bearer admin' } });
    expect(reply.status).toBe(200);
    const model = reply.json as {
      resources: { name: string; source: string; identifier: { property: string } }[];
      notes: { subject: string; level: string }[];
    };
    expect(model.resources.map(({ name, source, identifier }) => [name, source, identifier.property])).toEqual([
      ['widgets', 'config', 'code'],
      ['parts', 'extension', 'sku'],
    ]);
    expect(model.notes.map(({ subject, level }) => [subject, level])).toEqual([
      ['/gadgets', 'ambiguous'],
      ['/reports', 'info'],
    ]);
  });

  it('is refused without the admin token, as every control operation', async () => {
    expect((await send(`${server.current.url}/__control/resources`)).status).toBe(401);
  });
});

describe('an override naming what the document lacks stops the start', () => {
  it('rejects with a config error naming the path and the property', async () => {
    await expect(startServer({ port: 0, spec: `${FIXTURES}petstore-expanded.yaml`, resources: { '/pets': { id: 'serial' } } })).rejects.toMatchObject({
      code: 'PST_ERR_CONFIG',
      message: expect.stringContaining(`the config file's resources["/pets"]: "id": "serial" is not a property of /pets's items`),
    });
  });
});

describe('GET /__control/resources: the Swagger Petstore 3 (ids the client may give, else the server assigns)', () => {
  const server = serverFor({ spec: `${FIXTURES}swagger-petstore3.yaml` });

  it('answers assignedBy "either", as spec/control-api.yaml allows', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    const model = reply.json as { resources: { name: string; identifier: { property: string; assignedBy: string } }[] };
    expect(model.resources.map(({ name, identifier }) => [name, identifier.property, identifier.assignedBy])).toEqual([
      ['pet', 'id', 'either'],
      ['order', 'id', 'either'],
      ['user', 'username', 'either'],
    ]);
    expectConforms(await loadDocument(shippedFile('spec/control-api.yaml')), 'get', '/__control/resources', reply);
  });
});

describe('GET /__control/resources: server-made fields, inferred and settled by the config', () => {
  const server = serverFor({ spec: `${FIXTURES}articles.yaml`, resources: { '/articles': { fields: { favorited: 'none', favoritesCount: 'placeholder' } } } });

  it('says which fields the server makes and how, as spec/control-api.yaml declares', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    const model = reply.json as { resources: { name: string; serverFields: unknown }[] };
    expect(model.resources.map(({ name, serverFields }) => [name, serverFields])).toEqual([
      [
        'articles',
        [
          { property: 'slug', kind: 'slug', from: 'title' },
          { property: 'createdAt', kind: 'created-time' },
          { property: 'updatedAt', kind: 'updated-time' },
          { property: 'favoritesCount', kind: 'placeholder', note: 'config' },
        ],
      ],
    ]);
    expectConforms(await loadDocument(shippedFile('spec/control-api.yaml')), 'get', '/__control/resources', reply);
  });
});

describe('GET /__control/resources: what each PUT does to the item', () => {
  const server = serverFor({ spec: fileURLToPath(new URL('../resources/documents/partial-put.yaml', import.meta.url)) });

  it('says replace where the body becomes the item, merge where only what is sent changes, as spec/control-api.yaml declares', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    const model = reply.json as { resources: { name: string; replace?: string }[] };
    // Box's folder update requires none of what a folder's create requires; the notes' PUT requires it all.
    expect(model.resources.map(({ name, replace }) => [name, replace])).toEqual([
      ['folders', 'merge'],
      ['notes', 'replace'],
    ]);
    expectConforms(await loadDocument(shippedFile('spec/control-api.yaml')), 'get', '/__control/resources', reply);
  });
});

describe('a fields override the document cannot honour stops the start', () => {
  it('rejects with a config error naming the property and the rule', async () => {
    await expect(
      startServer({ port: 0, spec: `${FIXTURES}articles.yaml`, resources: { '/articles': { fields: { createdAt: 'flag' } } } }),
    ).rejects.toMatchObject({
      code: 'PST_ERR_CONFIG',
      message: expect.stringContaining(`the config file's resources["/articles"]: "fields": "createdAt" is string; "flag" makes boolean values`),
    });
  });
});

describe('GET /__control/resources and the items routes: a resource in envelopes (RealWorld Conduit)', () => {
  const server = serverFor({
    spec: `${FIXTURES}realworld-conduit.yaml`,
    seedItems: {
      articles: [
        {
          slug: 'seeded',
          title: 'Seeded',
          description: 'd',
          body: 'b',
          tagList: [],
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
          favorited: false,
          favoritesCount: 0,
          author: { username: 'u', bio: '', image: '', following: false },
        },
      ],
    },
  });

  it('shows the envelope per direction and the list envelope’s count; the create form’s example is the item inside', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    const articles = (reply.json as { resources: { name: string; example?: object }[] }).resources.find((resource) => resource.name === 'articles');
    expect(articles).toMatchObject({
      envelope: { request: 'article', answer: 'article' },
      list: { itemsProperty: 'articles', siblings: { count: ['articlesCount'] } },
      example: { title: expect.any(String), description: expect.any(String), body: expect.any(String) },
    });
    expect(articles?.example).not.toHaveProperty('article');
    expectConforms(await loadDocument(shippedFile('spec/control-api.yaml')), 'get', '/__control/resources', reply);
  });

  it('a seed item is the item inside: the API answers it in its envelope', async () => {
    const read = await send(`${server.current.url}/articles/seeded`);
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ article: { slug: 'seeded', title: 'Seeded' } });
    const listed = await send(`${server.current.url}/__control/resources/articles/items`);
    expect(JSON.stringify(listed.json)).toContain('"slug":"seeded"');
    expect(JSON.stringify(listed.json)).not.toContain('"article"');
  });
});

describe('GET /__control/resources: an update that takes a JSON Patch', () => {
  const server = serverFor({ spec: new URL('../resources/documents/json-patch.yaml', import.meta.url).pathname });

  it('answers update "json-patch", as spec/control-api.yaml allows', async () => {
    const reply = await send(`${server.current.url}/__control/resources`);
    expect(reply.status).toBe(200);
    const model = reply.json as { resources: { update?: string }[] };
    expect(model.resources.map((resource) => resource.update)).toContain('json-patch');
    expectConforms(await loadDocument(shippedFile('spec/control-api.yaml')), 'get', '/__control/resources', reply);
  });
});
