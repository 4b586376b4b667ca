/**
 * Every answer the server gives to POST /plants matches the document, as prism-http's
 * validateOutput judges it: one case for each kind of answer the other files prove (created,
 * created with echoId, every refusal), each checked for its own status and code first.
 * Outside the check, as documented: 404/405 (other paths and methods), the optional HTTP 401
 * (authStatus: 401), and the 408/400 written on a raw socket for requests that are not HTTP.
 */
import type { IHttpOperation } from '@stoplight/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH, idSequence, JSON_TYPE, postPlant, plantText, serverFor, VALID_HEADERS, type Reply } from '../support/server.js';
import { createPlantOperation, prismAcceptsResponse } from './prism.js';

const nextId = idSequence(90_000n);
const TAKEN_ID = 90_000_000n;

interface Case {
  readonly name: string;
  /** Which server: plain (bodyLimitBytes 4096) or echoing (echoId, tokens ['s3cret']). */
  readonly server: 'plain' | 'echoing';
  readonly send: (url: string) => Promise<Reply>;
  readonly status: number;
  /** The Error code, or undefined for a created Plant. */
  readonly error?: number;
}

async function* overLimitChunks(): AsyncGenerator<Buffer> {
  yield Buffer.from(`{"name":"${'c'.repeat(3000)}`);
  yield Buffer.from(`${'c'.repeat(3000)}","id":1}`);
}

const CASES: readonly Case[] = [
  { name: 'created, with a tag', server: 'plain', status: 200, send: (url) => postPlant(url, plantText({ name: 'Monstera', tag: 'aroid', id: nextId() })) },
  { name: 'created, without a tag', server: 'plain', status: 200, send: (url) => postPlant(url, plantText({ name: 'Cactus', id: TAKEN_ID })) },
  { name: 'created, largest int64 id', server: 'plain', status: 200, send: (url) => postPlant(url, plantText({ name: 'max', id: 9223372036854775807n })) },
  { name: 'created, with extra properties', server: 'plain', status: 200, send: (url) => postPlant(url, `{"name":"extra","id":${nextId()},"colour":"green"}`) },
  {
    name: 'created, with a __proto__ key',
    server: 'plain',
    status: 200,
    send: (url) => postPlant(url, `{"__proto__":{"x":1},"name":"proto","id":${nextId()}}`),
  },
  {
    name: 'created, echoId (the id in the body)',
    server: 'echoing',
    status: 200,
    send: (url) => postPlant(url, plantText({ name: 'echo', tag: 't', id: 9007199254740993n }), { ...JSON_TYPE, authorization: 'Bearer s3cret' }),
  },
  { name: 'duplicate id', server: 'plain', status: 400, error: 409, send: (url) => postPlant(url, plantText({ name: 'Cactus again', id: TAKEN_ID })) },
  { name: 'id above int64', server: 'plain', status: 400, error: 422, send: (url) => postPlant(url, plantText({ name: 'big', id: '9223372036854775808' })) },
  { name: 'id not an integer', server: 'plain', status: 400, error: 422, send: (url) => postPlant(url, '{"name":"frac","id":1.5}') },
  { name: 'name missing', server: 'plain', status: 400, error: 422, send: (url) => postPlant(url, `{"id":${nextId()}}`) },
  { name: 'tag not a string', server: 'plain', status: 400, error: 422, send: (url) => postPlant(url, `{"name":"n","tag":5,"id":${nextId()}}`) },
  { name: 'body not an object', server: 'plain', status: 400, error: 422, send: (url) => postPlant(url, '[]') },
  { name: 'malformed JSON', server: 'plain', status: 400, error: 400, send: (url) => postPlant(url, '{"name":') },
  { name: 'empty body', server: 'plain', status: 400, error: 400, send: (url) => postPlant(url, '') },
  { name: 'not UTF-8', server: 'plain', status: 400, error: 400, send: (url) => postPlant(url, Buffer.from([0x7b, 0xff, 0x7d])) },
  { name: 'nested too deep', server: 'plain', status: 400, error: 400, send: (url) => postPlant(url, `${'['.repeat(1000)}${']'.repeat(1000)}`) },
  {
    name: 'content type text/plain',
    server: 'plain',
    status: 400,
    error: 415,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...AUTH, 'content-type': 'text/plain' }),
  },
  {
    name: 'charset latin1',
    server: 'plain',
    status: 400,
    error: 415,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...AUTH, 'content-type': 'application/json; charset=latin1' }),
  },
  { name: 'body over the limit', server: 'plain', status: 400, error: 413, send: (url) => postPlant(url, plantText({ name: 'x'.repeat(5000), id: nextId() })) },
  { name: 'chunked body over the limit', server: 'plain', status: 400, error: 413, send: (url) => postPlant(url, overLimitChunks()) },
  {
    name: 'no Authorization',
    server: 'plain',
    status: 400,
    error: 401,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...JSON_TYPE }),
  },
  {
    name: 'Basic credentials',
    server: 'plain',
    status: 400,
    error: 401,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...JSON_TYPE, authorization: 'Basic xyz' }),
  },
  {
    name: 'empty bearer token',
    server: 'plain',
    status: 400,
    error: 401,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...JSON_TYPE, authorization: 'Bearer ' }),
  },
  {
    name: 'token not configured',
    server: 'echoing',
    status: 400,
    error: 401,
    send: (url) => postPlant(url, plantText({ name: 'n', id: nextId() }), { ...JSON_TYPE, authorization: 'Bearer other' }),
  },
  {
    name: 'query string ignored, created',
    server: 'plain',
    status: 200,
    send: (url) => postPlant(url, plantText({ name: 'q', id: nextId() }), VALID_HEADERS, '/plants?x=1'),
  },
];

describe("every answer to POST /plants conforms to the document (prism-http's validateOutput)", () => {
  const plain = serverFor({ bodyLimitBytes: 4096 });
  const echoing = serverFor({ echoId: true, tokens: ['s3cret'] });
  let operation: IHttpOperation;
  beforeAll(async () => {
    operation = await createPlantOperation();
  });

  // Sequential and in order: "duplicate id" relies on "created, without a tag" before it.
  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const server = testCase.server === 'plain' ? plain.current : echoing.current;
    const reply = await testCase.send(server.url);
    expect(reply.status, reply.text).toBe(testCase.status);
    if (testCase.error !== undefined) expect(reply.json).toEqual({ error: testCase.error, message: expect.any(String) });
    const verdict = prismAcceptsResponse(operation, reply.status, reply.headers, reply.text);
    expect(verdict.messages).toEqual([]);
    expect(verdict.valid).toBe(true);
  });

  it('covers every Error code the server gives for POST /plants', () => {
    const codes = new Set(CASES.flatMap((testCase) => (testCase.error === undefined ? [] : [testCase.error])));
    expect([...codes].sort()).toEqual([400, 401, 409, 413, 415, 422]);
  });
});

describe('the conformance check can fail', () => {
  let operation: IHttpOperation;
  beforeAll(async () => {
    operation = await createPlantOperation();
  });
  const json = { 'content-type': 'application/json' };

  it('rejects an Error whose error is a string', () => {
    expect(prismAcceptsResponse(operation, 400, json, '{"error":"x","message":"m"}').valid).toBe(false);
  });

  it('rejects an Error without a message', () => {
    expect(prismAcceptsResponse(operation, 400, json, '{"error":400}').valid).toBe(false);
  });

  it('rejects a Plant without a name', () => {
    expect(prismAcceptsResponse(operation, 200, json, '{"tag":"aroid"}').valid).toBe(false);
  });

  it('rejects a status the document does not declare (why the optional HTTP 401 is outside the check)', () => {
    expect(prismAcceptsResponse(operation, 401, json, '{"error":401,"message":"m"}').valid).toBe(false);
  });

  it('accepts the same Error with status 400 (so the rejections above are about the flaw alone)', () => {
    expect(prismAcceptsResponse(operation, 400, json, '{"error":401,"message":"m"}').valid).toBe(true);
  });
});
