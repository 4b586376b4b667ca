/**
 * Server-made string identifiers keep what their schema asks (a pattern, lengths, a format), stay
 * unique in their collection, and a collection whose schema admits no more of them refuses a create
 * with a clear error instead of looping: the allocation itself, then the create handler over an
 * in-memory store (patterned-ids.yaml, one resource per kind of rule).
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/json/exact-json.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { operationRoles, roleKey, type Resource } from '../../src/core/resources/model.js';
import { identifierType } from '../../src/core/schema/identifier.js';
import type { HandlerContext } from '../../src/http/binding.js';
import { compileRole } from '../../src/handlers/resource/bind-role.js';
import { allocatedKey } from '../../src/handlers/resource/identifier.js';
import { memoryResourceStores } from './memory-items.js';

const SID = { type: 'string', pattern: '^WS[0-9a-fA-F]{32}$', minLength: 34, maxLength: 34, nullable: true };

describe('the identifier type reads what a string asks', () => {
  it('keeps the pattern, lengths and format; a plain string asks nothing', () => {
    expect(identifierType(SID)).toEqual({ kind: 'string', rules: { pattern: '^WS[0-9a-fA-F]{32}$', minLength: 34, maxLength: 34 } });
    expect(identifierType({ type: 'string' })).toEqual({ kind: 'string' });
    expect(identifierType({ type: 'string', minLength: 0 })).toEqual({ kind: 'string' });
    expect(identifierType({ type: 'string', format: 'email' })).toEqual({ kind: 'string', rules: { format: 'email' } });
    expect(identifierType({ type: 'number', format: 'double' })).toEqual({ kind: 'string' });
  });
});

describe('allocatedKey for a string', () => {
  it('is the number in decimal where nothing or nothing more is asked (as before)', () => {
    expect(allocatedKey({ kind: 'string' }, 12n)).toBe('12');
    expect(allocatedKey(identifierType({ type: 'string', maxLength: 4 }), 12n)).toBe('12');
    expect(allocatedKey(identifierType({ type: 'string', pattern: '^[0-9]+$' }), 7n)).toBe('7');
  });

  it('pads to minLength, and gives none past maxLength', () => {
    expect(allocatedKey(identifierType({ type: 'string', minLength: 6, maxLength: 8 }), 42n)).toBe('000042');
    expect(allocatedKey(identifierType({ type: 'string', maxLength: 1 }), 9n)).toBe('9');
    expect(allocatedKey(identifierType({ type: 'string', maxLength: 1 }), 10n)).toBeUndefined();
  });

  it('makes a value of a format', () => {
    expect(allocatedKey(identifierType({ type: 'string', format: 'email' }), 3n)).toBe('item-3@example.com');
    expect(allocatedKey(identifierType({ type: 'string', format: 'uri' }), 3n)).toBe('https://example.com/items/3');
  });

  it('draws a value matching a pattern the decimal does not, the same for the same number and scope', async () => {
    const type = identifierType(SID);
    const first = await allocatedKey(type, 1n, 'a');
    expect(first).toMatch(/^WS[0-9a-fA-F]{32}$/);
    expect(await allocatedKey(type, 1n, 'a')).toBe(first);
    const others = await Promise.all([2n, 3n, 4n].map((n) => allocatedKey(type, n, 'a')));
    expect(new Set([first, ...others]).size).toBe(4);
    expect(await allocatedKey(type, 1n, 'b')).not.toBe(first);
  });

  it('gives none where no value keeps the rules (lengths the pattern never meets)', async () => {
    expect(await allocatedKey(identifierType({ type: 'string', pattern: '^[ab]$', minLength: 2 }), 1n)).toBeUndefined();
  });
});

const document = await loadDocument(new URL('./documents/patterned-ids.yaml', import.meta.url).pathname);
const model = inferResources(document);

function server() {
  const stores = memoryResourceStores();
  const roles = operationRoles(model);
  const handlers = new Map(
    document.operations.flatMap((operation) => {
      const role = roles.get(roleKey(operation.method, operation.path));
      return role ? [[roleKey(operation.method, operation.path), compileRole(operation, role, { stores, echoId: false })] as const] : [];
    }),
  );
  const call = async (method: string, template: string, path: Record<string, string> = {}, body?: JsonValue) => {
    const handler = handlers.get(roleKey(method, template));
    if (!handler) throw new Error(`no handler for ${method} ${template}`);
    const context: HandlerContext = {
      body,
      request: { method: method.toUpperCase(), path: template, query: {}, contentType: 'application/json', headers: {}, body: Buffer.alloc(0) },
      pathParameters: path,
      tenant: 'shared',
      preferences: undefined,
    };
    const outcome = await handler(context);
    if (!outcome.ok) return { status: 0, failure: outcome.failure, id: undefined };
    const text = outcome.answer.body.toString();
    return { status: outcome.answer.status, failure: undefined, id: text === '' ? undefined : (JSON.parse(text) as { id?: string }).id };
  };
  return {
    create: (name: string) => call('post', `/${name}`, {}, { label: name }),
    read: (name: string, id: string) => call('get', `/${name}/{id}`, { id }),
  };
}

const resource = (name: string): Resource => {
  const found = model.resources.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no resource ${name}: ${JSON.stringify(model.notes)}`);
  return found;
};

describe('create with a server-made string identifier', () => {
  it('reads the document so: each resource server-assigned, its rules in its type', () => {
    expect(resource('sids').identifier).toMatchObject({ property: 'id', assignedBy: 'server', type: { kind: 'string', rules: { minLength: 34 } } });
    expect(resource('plains').identifier.type).toEqual({ kind: 'string' });
  });

  it('answers a sid that keeps its pattern, and reads the item back by it', async () => {
    const api = server();
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const created = await api.create('sids');
      expect(created.status, JSON.stringify(created.failure)).toBe(201);
      expect(created.id).toMatch(/^WS[0-9a-fA-F]{32}$/);
      expect((await api.read('sids', created.id!)).id).toBe(created.id);
      ids.push(created.id);
    }
    expect(new Set(ids).size).toBe(5);
  });

  it('keeps the old numbering for a string that asks nothing, pads one with a minLength', async () => {
    const api = server();
    expect([(await api.create('plains')).id, (await api.create('plains')).id]).toEqual(['1', '2']);
    expect((await api.create('pads')).id).toBe('000001');
    expect((await api.create('digits')).id).toBe('1');
    expect((await api.create('emails')).id).toBe('item-1@example.com');
  });

  it('draws again past a taken value, then refuses clearly when the pattern admits no more (^[ab]$ after two)', async () => {
    const api = server();
    const first = await api.create('twins');
    const second = await api.create('twins');
    expect([first.id, second.id].sort()).toEqual(['a', 'b']);
    const started = Date.now();
    const third = await api.create('twins');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(third.failure).toMatchObject({
      entry: 'storageFailed',
      message: 'no free twin identifier keeping its schema (pattern ^[ab]$) found after 1000 tries; delete some or reset',
    });
  });

  it('refuses clearly when no value can be made at all', async () => {
    const api = server();
    for (let i = 1; i <= 9; i++) expect((await api.create('shorts')).id).toBe(String(i));
    expect((await api.create('shorts')).failure).toMatchObject({
      entry: 'storageFailed',
      message: 'no short identifier can be made that keeps its schema (maxLength 1)',
    });
  });

  it('keeps the decimal where fast-check cannot read the pattern (a lookahead): creates still work', async () => {
    const api = server();
    expect((await api.create('lookaheads')).id).toBe('1');
    expect((await api.create('lookaheads')).id).toBe('2');
  });
});
