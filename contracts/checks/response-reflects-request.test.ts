/** response-reflects-request on enveloped answers (the Conduit-style fixture): compared inside, server-added and unshown properties allowed. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { parseJsonExact } from '../generators/json-value.js';
import { answer, exchange } from './exchanges.test-support.js';
import { responseReflectsRequest } from './response-reflects-request.js';
import type { CheckContext } from './index.js';

const CONDUIT = fileURLToPath(new URL('../../test/fixtures/documents/conduit.yaml', import.meta.url));
const REALWORLD = fileURLToPath(new URL('../../test/fixtures/documents/realworld-conduit.yaml', import.meta.url));

async function contextOf(iid: string, path = CONDUIT): Promise<CheckContext> {
  const document = await loadDocument(path);
  const operation = document.operations.find((o) => o.iid === iid);
  if (operation === undefined) throw new Error(`${iid} missing`);
  return { operation, expectUniqueIds: false };
}

const article = parseJsonExact('{"article":{"title":"Hi","description":"d","body":"b","tagList":["x"]}}');
const signUp = parseJsonExact('{"user":{"username":"ann","email":"a@b.co","password":"12345678"}}');

describe('response-reflects-request, enveloped', () => {
  it('passes an envelope said back with server-made slug, createdAt and author added', async () => {
    const back = { article: { slug: 'hi-1', title: 'Hi', description: 'd', body: 'b', tagList: ['x'], createdAt: 'now', author: { username: 'ann' } } };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, back), article), await contextOf('createArticle'))?.outcome).toBe('pass');
  });

  it('fails a property inside the envelope that comes back changed, naming its path', async () => {
    const back = { article: { slug: 'hi-1', title: 'HI', description: 'd', body: 'b', tagList: ['x'], createdAt: 'now', author: { username: 'ann' } } };
    const verdict = responseReflectsRequest.judge(exchange({}, answer(201, back), article), await contextOf('createArticle'));
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.outcome === 'fail' ? verdict.expected : '').toBe('article.title: "Hi" (as sent)');
  });

  it('does not expect back what the answer schema does not show (a password)', async () => {
    const back = { user: { username: 'ann', email: 'a@b.co', token: 't', bio: null, image: null } };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, back), signUp), await contextOf('signUp'))?.outcome).toBe('pass');
  });

  it('does not expect a password back even where the answer schema shows one (the RealWorld User), and still judges the rest', async () => {
    const masked = { user: { username: 'ann', email: 'a@b.co', password: '', bio: 'text', image: 'text', token: 't' } };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, masked), signUp), await contextOf('CreateUser', REALWORLD))?.outcome).toBe('pass');
    const renamed = { user: { ...masked.user, username: 'bob' } };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, renamed), signUp), await contextOf('CreateUser', REALWORLD))?.outcome).toBe('fail');
  });

  it('does not expect a refresh token back: a refresh answers a new one (rotated)', async () => {
    const REFRESH = fileURLToPath(new URL('../../test/fixtures/documents/refresh-first-sign-in.yaml', import.meta.url));
    const sent = parseJsonExact('{"refresh_token":"old"}');
    const back = { email: 'a@b.co', id: 1, refresh_token: 'new', token: 't', username: 'ann' };
    expect(responseReflectsRequest.judge(exchange({}, answer(200, back), sent), await contextOf('refreshSession', REFRESH))?.outcome).toBe('pass');
  });

  it('keeps findings of two operations apart: the fault names its operation', async () => {
    const back = { user: { username: 'bob', email: 'a@b.co', token: 't' } };
    const verdict = responseReflectsRequest.judge(exchange({}, answer(201, back), signUp), await contextOf('signUp'));
    expect(verdict?.outcome === 'fail' ? verdict.key : undefined).toEqual({ by: 'answer', fault: 'signUp: user.username not carried back' });
  });
});

describe('response-reflects-request, a JSON Merge Patch', () => {
  const DEVICES = fileURLToPath(new URL('../../test/resources/documents/item-headers.yaml', import.meta.url));
  const patch = parseJsonExact('{"name":"two","firmware":null}');

  it('takes a null sent as the property’s removal: absent (or null) in the answer passes, a value kept fails', async () => {
    const operation = (await loadDocument(DEVICES)).operations.find((o) => o.method === 'patch');
    if (operation === undefined) throw new Error('the devices document has a PATCH');
    const judged = (back: object, contentType = 'application/merge-patch+json', header = 'content-type') => {
      const sent = exchange({}, answer(200, back), patch);
      const request = { ...sent.request, method: 'PATCH', headers: { [header]: contentType } };
      return responseReflectsRequest.judge({ ...sent, request }, { operation, expectUniqueIds: false })?.outcome;
    };
    expect(judged({ deviceId: 'd-1', name: 'two' })).toBe('pass');
    expect(judged({ deviceId: 'd-1', name: 'two', firmware: null })).toBe('pass');
    expect(judged({ deviceId: 'd-1', name: 'two', firmware: '1.0' })).toBe('fail');
    // Valid cases vary the header name's case.
    expect(judged({ deviceId: 'd-1', name: 'two' }, 'application/merge-patch+json', 'Content-Type')).toBe('pass');
    // Not a merge patch: a null sent is a value like any other, and the answer's Device cannot hold it
    // (firmware is a string there): the server says it otherwise, absent or as another value.
    expect(judged({ deviceId: 'd-1', name: 'two' }, 'application/json')).toBe('pass');
    expect(judged({ deviceId: 'd-1', name: 'two', firmware: '1.0' }, 'application/json')).toBe('pass');
    // A value it can hold is still held to: the name sent comes back.
    expect(judged({ deviceId: 'd-1', name: 'one' }, 'application/json')).toBe('fail');
  });
});

describe('response-reflects-request, an array of other things under the same name', () => {
  it('does not expect back patches answered as results (Ory Kratos’s batch patch), and still holds an echoed array', async () => {
    const item = (properties: object) => ({ type: 'object', properties });
    const document = await loadDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/identities': {
          patch: {
            requestBody: {
              content: {
                'application/json': {
                  schema: item({ identities: { type: 'array', items: item({ create: { type: 'object' }, patch_id: { type: 'string' } }) } }),
                },
              },
            },
            responses: {
              '200': {
                description: 'results',
                content: {
                  'application/json': {
                    schema: item({
                      identities: { type: 'array', items: item({ action: { type: 'string' }, identity: { type: 'string' }, patch_id: { type: 'string' } }) },
                    }),
                  },
                },
              },
            },
          },
        },
        '/tags': {
          post: {
            requestBody: { content: { 'application/json': { schema: item({ tags: { type: 'array', items: { type: 'string' } } }) } } },
            responses: {
              '200': { description: 'the tags', content: { 'application/json': { schema: item({ tags: { type: 'array', items: { type: 'string' } } }) } } },
            },
          },
        },
      },
    });
    const [batch, tags] = document.operations;
    if (batch === undefined || tags === undefined) throw new Error('two operations');
    const patches = parseJsonExact('{"identities":[{"create":{},"patch_id":"p1"}]}');
    const results = { identities: [{ action: 'create', identity: 'i1', patch_id: 'p1' }] };
    expect(responseReflectsRequest.judge(exchange({}, answer(200, results), patches), { operation: batch, expectUniqueIds: false })?.outcome).toBe('pass');
    const sentTags = parseJsonExact('{"tags":["a","b"]}');
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { tags: ['a'] }), sentTags), { operation: tags, expectUniqueIds: false })?.outcome).toBe(
      'fail',
    );
  });
});

describe('response-reflects-request, a property the answer declares otherwise (Ory Kratos’s credentials)', () => {
  const IDENTITIES = fileURLToPath(new URL('../../test/resources/documents/credentials-import.yaml', import.meta.url));
  const create = async (): Promise<CheckContext> => {
    const operation = (await loadDocument(IDENTITIES)).operations.find((o) => o.method === 'post');
    if (operation === undefined) throw new Error('post missing');
    return { operation, expectUniqueIds: false };
  };

  it('does not expect back a value the answer’s declaration cannot hold, and still expects one it can', async () => {
    const imported = parseJsonExact('{"traits":{"a":1},"credentials":{"password":{"config":{"password":"pw"}}}}');
    const id = '1f0e8d5c-0000-4000-8000-000000000000';
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id, traits: { a: 1 } }), imported), await create())?.outcome).toBe('pass');
    const fitting = parseJsonExact('{"traits":{"a":1},"credentials":{"password":{"type":"password"}}}');
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { id, traits: { a: 1 } }), fitting), await create())?.outcome).toBe('fail');
    const shown = { id, traits: { a: 1 }, credentials: { password: { type: 'password' } } };
    expect(responseReflectsRequest.judge(exchange({}, answer(201, shown), fitting), await create())?.outcome).toBe('pass');
  });
});

describe('response-reflects-request, a property the answer names otherwise (Twilio)', () => {
  const TWILIO = fileURLToPath(new URL('../../test/fixtures/documents/twilio-taskrouter-workspaces.json', import.meta.url));
  const sent = parseJsonExact('{"FriendlyName":"Support"}');

  it('expects FriendlyName back as friendly_name, the item’s own name for it (core/resources/held-names.ts)', async () => {
    const context = await contextOf('CreateWorkspace', TWILIO);
    const sid = 'WS0123456789abcdef0123456789abcdef';
    expect(responseReflectsRequest.judge(exchange({}, answer(201, { sid, friendly_name: 'Support' }), sent), context)?.outcome).toBe('pass');
    const dropped = responseReflectsRequest.judge(exchange({}, answer(201, { sid, friendly_name: 'Sales' }), sent), context);
    expect(dropped?.outcome).toBe('fail');
    expect(dropped?.outcome === 'fail' ? dropped.expected : '').toBe('friendly_name: "Support" (as sent)');
  });
});

describe('response-reflects-request, a default the server applied (Box’s metadata query)', () => {
  // Box's POST /metadata_queries/execute_read: limit (default 100) in the query body, and the
  // results say back the limit that was used, default 100. A correct server fills in the default.
  const document = {
    openapi: '3.0.2',
    info: { title: 'Box shape', version: '1' },
    paths: {
      '/metadata_queries/execute_read': {
        post: {
          operationId: 'post_metadata_queries_execute_read',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['from'],
                  properties: { from: { type: 'string' }, limit: { type: 'integer', default: 100, minimum: 0, maximum: 100 } },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { entries: { type: 'array', items: { type: 'object' } }, limit: { type: 'integer', format: 'int64', default: 100 } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
  const query = parseJsonExact('{"from":"enterprise_1.template"}');

  it('passes the default said back for a property not sent, and still fails another value', async () => {
    const operation = (await loadDocument(document)).operations[0];
    if (operation === undefined) throw new Error('operation missing');
    const context: CheckContext = { operation, expectUniqueIds: false };
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { entries: [], limit: 100 }), query), context)?.outcome).toBe('pass');
    expect(responseReflectsRequest.judge(exchange({}, answer(200, { entries: [], limit: 7 }), query), context)?.outcome).toBe('fail');
  });
});

describe('response-reflects-request, the item the path names (DigitalOcean’s evaluation test case update)', () => {
  // PUT /v2/gen-ai/evaluation_test_cases/{test_case_uuid}: the body may carry test_case_uuid, and the
  // answer {test_case_uuid, version} names the item changed. Sent in the path, it is not "added".
  const CLUSTERS = fileURLToPath(new URL('../../test/fixtures/documents/digitalocean-cuts.yaml', import.meta.url));
  const put = (url: string, name: string) => ({
    ...exchange({ role: 'lifecycle' }, answer(200, { name, version: 2 }), parseJsonExact('{"readonly":true}')),
    request: { method: 'PUT', url, headers: {}, body: '{"readonly":true}', label: 'replace' },
  });

  it('passes an answer that names the path’s item, and still fails a name the request gave nowhere', async () => {
    const context = await contextOf('databases_update_user', CLUSTERS);
    const url = 'http://h/api/v2/databases/0d1c2b3a-0000-4000-8000-000000000001/users/ann%20lee';
    expect(responseReflectsRequest.judge(put(url, 'ann lee'), context)?.outcome).toBe('pass');
    expect(responseReflectsRequest.judge(put(url, 'bob'), context)?.outcome).toBe('fail');
  });
});
