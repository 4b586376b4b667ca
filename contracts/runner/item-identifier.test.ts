/** Valid cases that name their item consistently (item-identifier.ts). */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { Resource } from '../../src/core/resources/model.js';
import { jsonObject, toJsonText, type JsonValue } from '../generators/json-value.js';
import type { RequestCase } from './case-source.js';
import { alignItemIdentifier, freshTextIdentifier } from './item-identifier.js';

const user = (property: string, kind: 'string' | 'integer', assignedBy: Resource['identifier']['assignedBy'], schema: object = {}): Resource =>
  ({
    name: 'user',
    collectionPath: '/user',
    itemPath: '/user/{username}',
    parentParameters: [],
    identifier: {
      parameter: 'username',
      property,
      assignedBy,
      type: kind === 'integer' ? { kind, minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n } : { kind },
    },
    operations: {},
    createSchema: { type: 'object', properties: { [property]: schema } },
    webhooks: [],
    source: 'inferred',
  }) as Resource;

const put = { method: 'put', path: '/user/{username}' } as unknown as Operation;
const caseOf = (path: string, entries: [string, JsonValue][]): RequestCase => {
  const payload = jsonObject(entries);
  return { kind: 'valid', target: 'body', method: 'PUT', path, headers: {}, payload, body: toJsonText(payload) };
};

describe('alignItemIdentifier', () => {
  it("puts the path's identifier into the body, decoded and typed", () => {
    const aligned = alignItemIdentifier(
      user('username', 'string', 'either'),
      put,
      caseOf('/user/%C3%9Cn%20x?q=1', [
        ['username', ''],
        ['firstName', 'A'],
      ]),
    );
    expect(aligned.body).toBe('{"username":"Ün x","firstName":"A"}');
    const byId = alignItemIdentifier(user('id', 'integer', 'client'), put, caseOf('/user/9007199254740993', [['id', 1n]]));
    expect(byId.body).toBe('{"id":9007199254740993}');
  });

  it('leaves a body without the identifier, or one that is not its payload, as it is', () => {
    const none = caseOf('/user/a', [['firstName', 'A']]);
    expect(alignItemIdentifier(user('username', 'string', 'either'), put, none)).toBe(none);
    const raw = { ...caseOf('/user/a', [['username', 'b']]), body: '{ "username": "b" }' };
    expect(alignItemIdentifier(user('username', 'string', 'either'), put, raw)).toBe(raw);
  });
});

describe('freshTextIdentifier', () => {
  it('makes an either-assigned text id unique, keeping the drawn text as its start', () => {
    const create = caseOf('/user', [
      ['username', "'"],
      ['firstName', 'A'],
    ]);
    const [one, two] = [1, 2].map(() => freshTextIdentifier(user('username', 'string', 'either'), create));
    expect((one?.payload as { username: string }).username).toMatch(/^'-[0-9a-f]{12}$/);
    expect(one?.body).toBe(toJsonText(one?.payload as JsonValue));
    expect(one?.body).not.toBe(two?.body);
  });

  it('leaves client-assigned ids (ids.ts and send.ts freshen those), integers, constrained texts and id-less creates alone', () => {
    const create = caseOf('/user', [['username', 'a']]);
    expect(freshTextIdentifier(user('username', 'string', 'client'), create)).toBe(create);
    expect(freshTextIdentifier(user('username', 'string', 'either', { maxLength: 3 }), create)).toBe(create);
    const numbered = caseOf('/user', [['id', 5n]]);
    expect(freshTextIdentifier(user('id', 'integer', 'either'), numbered)).toBe(numbered);
    const anonymous = caseOf('/user', [['firstName', 'A']]);
    expect(freshTextIdentifier(user('username', 'string', 'either'), anonymous)).toBe(anonymous);
  });
});
