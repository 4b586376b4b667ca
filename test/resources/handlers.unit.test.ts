/**
 * The resource handlers, called directly with a hand-built model over an in-memory ItemStore
 * written from the interface (memory-items.ts): what each role reads and writes, and how its
 * answer is shaped by the document's schema.
 */
import { describe, expect, it } from 'vitest';
import { INT64_MAX, INT64_MIN } from '../../src/core/json/int64.js';
import { parseJsonExact, type JsonValue } from '../../src/core/json/exact-json.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { operationRoles, roleKey, type Resource, type ResourceModel } from '../../src/core/resources/model.js';
import { compileRole } from '../../src/handlers/resource/bind-role.js';
import type { HandlerContext } from '../../src/http/binding.js';
import type { Outcome } from '../../src/http/answer.js';
import { memoryResourceStores } from './memory-items.js';

const document = await loadDocument(new URL('./documents/pets-crud.yaml', import.meta.url).pathname);
const op = (method: string, path: string) => {
  const found = document.operations.find((operation) => operation.method === method && operation.path === path);
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
};
const ref = (method: string, path: string) => ({ method, path, name: `${method.toUpperCase()} ${path}` });
const responseSchema = (method: string, path: string, code: string) => op(method, path).responses.find((r) => r.code === code)?.contents?.[0]?.schema;

const pets: Resource = {
  name: 'pets',
  collectionPath: '/pets',
  itemPath: '/pets/{petId}',
  parentParameters: [],
  identifier: { parameter: 'petId', property: 'id', assignedBy: 'server', type: { kind: 'integer', minimum: INT64_MIN, maximum: INT64_MAX } },
  operations: {
    create: ref('post', '/pets'),
    list: ref('get', '/pets'),
    read: ref('get', '/pets/{petId}'),
    replace: ref('put', '/pets/{petId}'),
    update: ref('patch', '/pets/{petId}'),
    delete: ref('delete', '/pets/{petId}'),
  },
  update: 'merge-patch',
  list: { limit: 'limit', offset: 'offset', filters: ['tag', 'id'] },
  itemSchema: responseSchema('get', '/pets/{petId}', '200')!,
  webhooks: [],
  source: 'inferred',
};
const ownedPets: Resource = {
  name: 'owners.pets',
  collectionPath: '/owners/{ownerId}/pets',
  parentParameters: ['ownerId'],
  identifier: { property: 'petId', assignedBy: 'client', type: { kind: 'uuid' } },
  operations: { create: ref('post', '/owners/{ownerId}/pets'), list: ref('get', '/owners/{ownerId}/pets') },
  list: { limit: 'limit', filters: [] },
  itemSchema: responseSchema('post', '/owners/{ownerId}/pets', '201')!,
  webhooks: [],
  source: 'inferred',
};
const model: ResourceModel = { resources: [pets, ownedPets], notes: [] };

function server(echoId = false) {
  const stores = memoryResourceStores();
  const roles = operationRoles(model);
  const handlers = new Map(
    document.operations.flatMap((operation) => {
      const role = roles.get(roleKey(operation.method, operation.path));
      return role ? [[roleKey(operation.method, operation.path), compileRole(operation, role, { stores, echoId })] as const] : [];
    }),
  );
  return {
    stores,
    async call(
      method: string,
      template: string,
      options: { body?: JsonValue; path?: Record<string, string>; query?: Record<string, string>; tenant?: string } = {},
    ) {
      const handler = handlers.get(roleKey(method, template));
      if (!handler) throw new Error(`no handler for ${method} ${template}`);
      const context: HandlerContext = {
        body: options.body,
        request: {
          method: method.toUpperCase(),
          path: template,
          query: options.query ?? {},
          contentType: 'application/json',
          headers: {},
          body: Buffer.alloc(0),
        },
        pathParameters: options.path ?? {},
        tenant: options.tenant ?? 'shared',
        preferences: undefined,
      };
      return reply(await handler(context));
    },
  };
}

function reply(outcome: Outcome) {
  if (!outcome.ok) return { status: 0, failure: outcome.failure, json: undefined, text: '', headers: {} };
  const { status, headers } = outcome.answer;
  const body = outcome.answer.body.toString();
  return { status, failure: undefined, text: body, headers, json: body === '' ? undefined : (parseJsonExact(body) as Record<string, JsonValue>) };
}

describe('create', () => {
  it('assigns sequential int64 ids and fills the required properties the request lacks, once', async () => {
    const api = server();
    const first = await api.call('post', '/pets', { body: { name: 'Rex', tag: 'dog' } });
    const second = await api.call('post', '/pets', { body: { name: 'Tom' } });
    expect(first.status).toBe(201);
    expect(first.headers).toEqual({ 'content-type': 'application/json' });
    expect(first.json).toEqual({ name: 'Rex', tag: 'dog', id: 1, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), status: 'available' });
    expect((second.json as { id: number }).id).toBe(2);
    const read = await api.call('get', '/pets/{petId}', { path: { petId: '1' } });
    expect(read.json).toEqual(first.json);
  });

  it('refuses a taken client-assigned id, worded for the resource, and stores nothing', async () => {
    const api = server();
    const petId = '0b8f4c3e-1a2b-4c5d-8e9f-0a1b2c3d4e5f';
    expect((await api.call('post', '/owners/{ownerId}/pets', { path: { ownerId: 'ann' }, body: { petId, name: 'Rex' } })).status).toBe(201);
    const again = await api.call('post', '/owners/{ownerId}/pets', { path: { ownerId: 'ann' }, body: { petId: petId.toUpperCase(), name: 'Tom' } });
    expect(again.failure).toMatchObject({ entry: 'duplicateId', error: 409, message: `a pet with id "${petId}" already exists; ids are unique` });
  });
});

describe('list', () => {
  it('answers creation order, honours limit, offset and an exact filter, and shapes each item', async () => {
    const api = server();
    for (const pair of ['ax', 'by', 'cx', 'dx']) await api.call('post', '/pets', { body: { name: pair.charAt(0), tag: pair.charAt(1) } });
    const names = (reply: { json: unknown }) => (reply.json as { name: string }[]).map((pet) => pet.name);
    expect(names(await api.call('get', '/pets'))).toEqual(['a', 'b', 'c', 'd']);
    expect(names(await api.call('get', '/pets', { query: { limit: '2' } }))).toEqual(['a', 'b']);
    expect(names(await api.call('get', '/pets', { query: { limit: '2', offset: '1' } }))).toEqual(['b', 'c']);
    expect(names(await api.call('get', '/pets', { query: { tag: 'x', limit: '2' } }))).toEqual(['a', 'c']);
    expect(names(await api.call('get', '/pets', { query: { id: '3' } }))).toEqual(['c']);
  });

  it('uses the limit parameter default when no limit is given', async () => {
    const api = server();
    for (let i = 0; i < 25; i++) await api.call('post', '/pets', { body: { name: `p${i}` } });
    expect((await api.call('get', '/pets')).json).toHaveLength(20);
  });

  it('keeps nested collections apart by their parent, and wraps the page with its total and next', async () => {
    const api = server();
    const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    for (const n of [1, 2, 3]) await api.call('post', '/owners/{ownerId}/pets', { path: { ownerId: 'ann' }, body: { petId: uuid(n), name: `a${n}` } });
    await api.call('post', '/owners/{ownerId}/pets', { path: { ownerId: 'bob' }, body: { petId: uuid(1), name: 'b1' } });
    const ann = await api.call('get', '/owners/{ownerId}/pets', { path: { ownerId: 'ann' }, query: { limit: '2' } });
    expect(ann.json).toEqual({
      items: [
        { petId: uuid(1), name: 'a1' },
        { petId: uuid(2), name: 'a2' },
      ],
      total: 3,
      next: expect.any(String),
    });
    const bob = await api.call('get', '/owners/{ownerId}/pets', { path: { ownerId: 'bob' } });
    expect(bob.json).toEqual({ items: [{ petId: uuid(1), name: 'b1' }], total: 1 });
  });
});

describe('read, replace, update, delete', () => {
  it('refuses a missing item with itemNotFound, and a path that is no identifier with invalidId', async () => {
    const api = server();
    expect((await api.call('get', '/pets/{petId}', { path: { petId: '5' } })).failure).toMatchObject({
      entry: 'itemNotFound',
      error: 404,
      message: 'no pet with id 5',
    });
    expect((await api.call('get', '/pets/{petId}', { path: { petId: '007' } })).failure).toMatchObject({ entry: 'invalidId', error: 400 });
    // Digits beyond int64 that reach the handler (the parameter check is not run here) name no pet.
    expect((await api.call('delete', '/pets/{petId}', { path: { petId: '9223372036854775808' } })).failure).toMatchObject({ entry: 'itemNotFound' });
  });

  it('reads an id beyond 2^53 exactly', async () => {
    const api = server();
    const big = 9007199254740993n;
    const store = (await api.stores.forTenant('shared')).collection('pets');
    await store.create({ id: big, fields: { id: big, name: 'big', createdAt: '2026-01-01T00:00:00Z', status: 'sold' } });
    const read = await api.call('get', '/pets/{petId}', { path: { petId: '9007199254740993' } });
    expect(read.text).toBe('{"name":"big","id":9007199254740993,"createdAt":"2026-01-01T00:00:00Z","status":"sold"}');
    expect((await api.call('get', '/pets/{petId}', { path: { petId: '9007199254740992' } })).failure?.entry).toBe('itemNotFound');
  });

  it('replaces keeping the path id, refusing a body id that differs and a missing item', async () => {
    const api = server();
    await api.call('post', '/pets', { body: { name: 'Rex', tag: 'dog' } });
    const replaced = await api.call('put', '/pets/{petId}', { path: { petId: '1' }, body: { name: 'Max' } });
    expect(replaced.json).toMatchObject({ id: 1, name: 'Max', status: 'available' });
    expect(replaced.json).not.toHaveProperty('tag');
    const mismatch = await api.call('put', '/pets/{petId}', { path: { petId: '1' }, body: { name: 'Max', id: 2 } });
    expect(mismatch.failure).toMatchObject({ entry: 'idMismatch', message: 'the body says id is 2, the path says 1; a pet keeps its identifier' });
    expect((await api.call('put', '/pets/{petId}', { path: { petId: '9' }, body: { name: 'Max' } })).failure?.entry).toBe('itemNotFound');
  });

  it('updates by JSON Merge Patch (null removes) and refuses a result that breaks the item schema, storing nothing', async () => {
    const api = server();
    await api.call('post', '/pets', { body: { name: 'Rex', tag: 'dog' } });
    const patched = await api.call('patch', '/pets/{petId}', { path: { petId: '1' }, body: { tag: null, status: 'sold' } });
    expect(patched.json).toMatchObject({ id: 1, name: 'Rex', status: 'sold' });
    expect(patched.json).not.toHaveProperty('tag');
    const broken = await api.call('patch', '/pets/{petId}', { path: { petId: '1' }, body: { name: null } });
    expect(broken.failure).toMatchObject({ entry: 'schemaViolation' });
    expect(broken.failure?.message).toContain('name');
    expect((await api.call('get', '/pets/{petId}', { path: { petId: '1' } })).json).toMatchObject({ name: 'Rex', status: 'sold' });
    expect((await api.call('patch', '/pets/{petId}', { path: { petId: '4' }, body: { name: 'x' } })).failure?.entry).toBe('itemNotFound');
  });

  it('deletes with 204 and no body; the item is gone and a second delete is a miss', async () => {
    const api = server();
    await api.call('post', '/pets', { body: { name: 'Rex' } });
    const deleted = await api.call('delete', '/pets/{petId}', { path: { petId: '1' } });
    expect({ status: deleted.status, text: deleted.text }).toEqual({ status: 204, text: '' });
    expect((await api.call('get', '/pets/{petId}', { path: { petId: '1' } })).failure?.entry).toBe('itemNotFound');
    expect((await api.call('delete', '/pets/{petId}', { path: { petId: '1' } })).failure?.entry).toBe('itemNotFound');
  });
});
