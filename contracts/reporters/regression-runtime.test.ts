/** The runtime the emitted regression tests import, function by function, and its copy beside them. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertExpectation,
  flatHeaders,
  freshLike,
  idShift,
  mediaTypeMatches,
  moveIds,
  replay,
  readAsJudged,
  schemaProblems,
  urlOf,
  validatorOf,
  valueIn,
  withIdsIn,
  type Answer,
} from './regression-runtime.js';
import { headersFor } from './regression-secrets.js';
import { standaloneValidator } from '../../src/core/prism/standalone.js';
import { failedReport } from './report.test-support.js';
import { emitRegressions, RUNTIME_FILE, RUNTIME_FILES, runtimeSource } from './regressions.js';

const answer = (status: number, text = '', headers: Record<string, string> = {}): Answer => ({ status, headers, text });

describe('ids', () => {
  it("names created ids as variables: fresh ones of the same shape, the server's id read exactly from its answer", () => {
    expect(freshLike('7', 4096n)).toMatch(/^\d{10}$/);
    expect(BigInt(freshLike('-5000000000000', 4096n))).toBe(-5000000004096n);
    expect(freshLike('lc-0123abcd', 4096n)).toMatch(/^lc-[0-9a-f]{8}$/);
    expect(freshLike('3f2c1a9e-0000-4000-8000-00000000000a', 4096n)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(freshLike('lc-0123abcd', 4096n)).not.toBe(freshLike('lc-0123abcd', 4096n));
    expect(valueIn('{"name":"x","id":9007199254740993}', 'id')).toBe('9007199254740993');
    expect(valueIn('{"id":"3f2c"}', 'id')).toBe('3f2c');
    expect(withIdsIn('/pets/{{ID1}}?x={{ID2}}', new Map([['ID1', 'a b']]), encodeURIComponent)).toBe('/pets/a%20b?x={{ID2}}');
  });

  it('moves ids of 2^42 and more by the shift (towards 0 above 2^62), keeps int64 edges, swaps small ids only when asked', () => {
    const shift = 4096n;
    expect(moveIds('{"id":4398046511104}', shift, undefined)).toBe('{"id":4398046515200}');
    expect(moveIds('{"id": -4398046511104}', shift, undefined)).toBe('{"id": -4398046515200}');
    expect(moveIds(`{"id":${2n ** 62n + 5n}}`, shift, undefined)).toBe(`{"id":${2n ** 62n + 5n - shift}}`);
    expect(moveIds(`{"id":${2n ** 63n - 1n}}`, shift, undefined)).toBe(`{"id":${2n ** 63n - 1n}}`);
    expect(moveIds('{"id":17,"x":1.5}', shift, undefined)).toBe('{"id":17,"x":1.5}');
    expect(moveIds('{"id":1.5}', shift, new Map())).toBe('{"id":1.5}');
    const swapped = new Map<bigint, bigint>();
    const first = moveIds('{"id":17}', shift, swapped);
    expect(first).not.toBe('{"id":17}');
    expect(moveIds('{"id":17}', shift, swapped)).toBe(first); // the same id, the same swap
    expect(BigInt(/\d+/.exec(first)?.[0] ?? '0') >= 2n ** 61n).toBe(true);
  });

  it('shifts by a positive multiple of 4096 below 2^39', () => {
    for (let i = 0; i < 20; i += 1) {
      const shift = idShift();
      expect(shift > 0n && shift < 2n ** 39n + 4096n && shift % 4096n === 0n).toBe(true);
    }
  });
});

describe('requests', () => {
  const step = { headers: { Authorization: 'Bearer recorded', 'content-type': 'application/json' }, runToken: true };

  it('sends the recorded headers unless given a token, which replaces only the run token', () => {
    expect(headersFor(step, undefined)).toBe(step.headers);
    expect(headersFor(step, 'mine')).toEqual({ Authorization: 'Bearer mine', 'content-type': 'application/json' });
    expect(headersFor({ ...step, runToken: false }, 'mine')).toBe(step.headers);
    expect(headersFor({ headers: {}, runToken: true }, 'mine')).toEqual({});
  });

  it('joins the target and path, and flattens answer headers', () => {
    expect(urlOf('http://h:1//', '/plants?x=1')).toBe('http://h:1/plants?x=1');
    expect(flatHeaders({ 'Content-Type': 'a/b', 'Set-Cookie': ['a', 'b'], gone: undefined })).toEqual({ 'content-type': 'a/b', 'set-cookie': 'a, b' });
  });

  it('replays the steps in order with one id shift, and answers with the last', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
        res.writeHead(seen.length === 1 ? 200 : 409, { 'content-type': 'application/json' }).end(`{"n":${seen.length}}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const create = {
        method: 'POST',
        path: '/plants',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id":4398046511104}',
        runToken: true,
      };
      const { answer: last, sent } = await replay(target, [create, create], false);
      expect(last.status).toBe(409);
      expect(last.headers['content-type']).toBe('application/json');
      expect(last.text).toBe('{"n":2}');
      expect(seen).toHaveLength(2);
      expect(seen[0]).toBe(seen[1]); // the same moved id both times: a re-used id stays re-used
      expect(seen[0]).toMatch(/^POST \/plants Bearer t \{"id":\d+\}$/);
      expect(sent.body).not.toBe(create.body);
      await expect(replay(target, [], false)).rejects.toThrow(/no step/);
    } finally {
      server.close();
    }
  });
});

describe('expectations', () => {
  const passes = (...args: Parameters<typeof assertExpectation>): boolean => {
    try {
      assertExpectation(...args);
      return true;
    } catch {
      return false;
    }
  };

  it('status classes, in and out', () => {
    expect(passes({ kind: 'status-class', classes: [2] }, answer(201), {})).toBe(true);
    expect(passes({ kind: 'status-class', classes: [2] }, answer(400), {})).toBe(false);
    expect(passes({ kind: 'not-status-class', classes: [5] }, answer(400), {})).toBe(true);
    expect(passes({ kind: 'not-status-class', classes: [5] }, answer(503), {})).toBe(false);
  });

  it('lists: an item shown or not by a property, a complete list only, at most limit items', () => {
    const list = answer(200, '{"data":[{"id":7,"name":"a"},{"id":8}]}');
    expect(passes({ kind: 'lists', property: 'id', json: ['7', '8'] }, list, {})).toBe(true);
    expect(passes({ kind: 'lists', property: 'id', json: ['9'] }, list, {})).toBe(false);
    // A full page (2 items, limit 2) may leave item 9 to the next one: nothing to conclude.
    expect(passes({ kind: 'lists', property: 'id', json: ['9'], limit: '2' }, list, {})).toBe(true);
    expect(passes({ kind: 'does-not-list', property: 'name', json: ['"b"'] }, list, {})).toBe(true);
    expect(passes({ kind: 'does-not-list', property: 'name', json: ['"a"'] }, list, {})).toBe(false);
    expect(passes({ kind: 'at-most-items', limit: '2' }, list, {})).toBe(true);
    expect(passes({ kind: 'at-most-items', limit: '1' }, list, {})).toBe(false);
    const counted = answer(200, '{"data":[{"id":7}],"meta":{"total":3}}', { 'x-total-count': '1' });
    expect(passes({ kind: 'total-at-least', body: ['meta', 'total'], atLeast: '3' }, counted, {})).toBe(true);
    expect(passes({ kind: 'total-at-least', body: ['meta', 'total'], atLeast: '4' }, counted, {})).toBe(false);
    expect(passes({ kind: 'total-at-least', header: 'x-total-count', atLeast: '1' }, counted, {})).toBe(true);
    expect(passes({ kind: 'total-at-least', header: 'x-total-count', atLeast: '2' }, counted, {})).toBe(false);
    // No total where one was found before: not a pass.
    expect(passes({ kind: 'total-at-least', header: 'x-total', atLeast: '1' }, counted, {})).toBe(false);
    expect(passes({ kind: 'shows', values: [{ property: 'name', json: '"a"' }, { property: 'tag' }] }, answer(200, '{"name":"a"}'), {})).toBe(true);
    expect(passes({ kind: 'shows', values: [{ property: 'name', json: '"b"' }] }, answer(200, '{"name":"a"}'), {})).toBe(false);
  });

  it('declared statuses: exact, by range, default', () => {
    expect(passes({ kind: 'declared-status', codes: ['200', '400'] }, answer(400), {})).toBe(true);
    expect(passes({ kind: 'declared-status', codes: ['4XX'] }, answer(404), {})).toBe(true);
    expect(passes({ kind: 'declared-status', codes: ['200', 'default'] }, answer(418), {})).toBe(true);
    expect(passes({ kind: 'declared-status', codes: ['200', '400'] }, answer(201), {})).toBe(false);
  });

  it('media types, parameters ignored, wildcards allowed', () => {
    expect(mediaTypeMatches('Application/JSON; charset=utf-8', 'application/json')).toBe(true);
    expect(mediaTypeMatches('application/problem+json', 'application/*')).toBe(true);
    expect(mediaTypeMatches('text/plain', 'application/json')).toBe(false);
    expect(mediaTypeMatches(undefined, '*/*')).toBe(true);
    expect(passes({ kind: 'media-type', mediaTypes: ['application/json'] }, answer(200, '', { 'content-type': 'text/plain' }), {})).toBe(false);
    expect(passes({ kind: 'media-type', mediaTypes: ['application/json'] }, answer(200, '', { 'content-type': 'application/json' }), {})).toBe(true);
  });

  it('JSON schemas, judged by the validator generated from the schema (Ajv standalone code, needing nothing installed)', () => {
    type Schema = Record<string, unknown>;
    const code = (schema: Schema): string => standaloneValidator({ schema, bundle: undefined });
    const problems = (value: unknown, schema: Schema): string[] => schemaProblems(value, validatorOf({ validator: code(schema) }));
    const error: Schema = {
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer', minimum: -2147483648, maximum: 2147483647 }, message: { type: 'string' } },
    };
    expect(problems({ error: 400, message: 'm' }, error)).toEqual([]);
    expect(problems({ error: 2 ** 40 }, error).join('\n')).toMatch(/message[\s\S]*<= 2147483647|<= 2147483647[\s\S]*message/);
    expect(problems('x', error)).toEqual([expect.stringMatching(/^body must be object/)]);
    expect(problems([1, 'a'], { type: 'array', items: { type: 'integer' } })).toEqual([expect.stringMatching(/^body\/1 must be integer/)]);
    expect(problems({ a: 1 }, { additionalProperties: false })).toEqual([expect.stringMatching(/^body must NOT have additional properties/)]);
    expect(problems('ab', { minLength: 3, enum: ['x'] })).toHaveLength(2);
    expect(problems(1, { anyOf: [{ type: 'string' }, { type: 'null' }] }).join('\n')).toMatch(/anyOf/);
    expect(problems(1, { oneOf: [{ type: 'integer' }, { type: 'number' }] }).join('\n')).toMatch(/oneOf/);
    // What the hand-written subset this replaced ignored: pattern, format, multipleOf, minItems.
    expect(problems('ABC', { type: 'string', pattern: '^[a-z]+$' })).toHaveLength(1);
    expect(problems('yesterday', { type: 'string', format: 'date-time' })).toHaveLength(1);
    expect(problems(7, { multipleOf: 5 })).toHaveLength(1);
    expect(problems([], { type: 'array', minItems: 1 })).toHaveLength(1);
    expect(passes({ kind: 'json-schema', schema: error, validator: code(error) }, answer(400, '{"error":400,"message":"m"}'), {})).toBe(true);
    expect(passes({ kind: 'json-schema', schema: error, validator: code(error) }, answer(400, '{"error":"400"}'), {})).toBe(false);
    expect(passes({ kind: 'json-schema', schema: error, validator: code(error) }, answer(400, 'not json'), {})).toBe(false);
    // A file without a validator (never written by the emitter) fails with a reason rather than passing.
    expect(passes({ kind: 'json-schema', schema: error }, answer(400, '{"error":400,"message":"m"}'), {})).toBe(false);
  });

  it('reads an answer as the check did: an int64 beyond 2^53 on its own side of the int64 bounds', () => {
    const int64: Record<string, unknown> = { type: 'integer', minimum: -(2 ** 63), exclusiveMaximum: 2 ** 63 };
    const validate = validatorOf({ validator: standaloneValidator({ schema: int64, bundle: undefined }) });
    expect(validate(readAsJudged('9223372036854775807'))).toBe(true);
    expect(validate(readAsJudged('9223372036854775808'))).toBe(false);
    expect(validate(readAsJudged('-9223372036854775808'))).toBe(true);
    expect(validate(readAsJudged('-9223372036854775809'))).toBe(false);
    // JSON.parse alone rounds 2^63 − 1 up to 2^63: the reason for the reader.
    expect(validate(JSON.parse('9223372036854775807'))).toBe(false);
    expect(readAsJudged('{"s":"9223372036854775808","n":[9007199254740993]}')).toEqual({ s: '9223372036854775808', n: [9007199254740992] });
  });

  it('echo: a property sent comes back equal, one not sent stays absent', () => {
    const echo = { kind: 'echo', property: 'tag' } as const;
    expect(passes(echo, answer(200, '{"name":"a","tag":"t"}'), { body: '{"name":"a","tag":"t"}' })).toBe(true);
    expect(passes(echo, answer(200, '{"name":"a","tag":"x"}'), { body: '{"name":"a","tag":"t"}' })).toBe(false);
    expect(passes(echo, answer(200, '{"name":"a"}'), { body: '{"name":"a"}' })).toBe(true);
    expect(passes(echo, answer(200, '{"name":"a","tag":"string"}'), { body: '{"name":"a"}' })).toBe(false);
  });
});

describe('emitting', () => {
  it('copies the runtime beside the tests, as is', async () => {
    const finding = {
      check: 'no-server-errors',
      severity: 'failure',
      outcome: 'fail',
      message: 'boom',
      count: 1,
      expected: 'a status below 500',
      actual: '500',
      seed: 1,
      shrunk: false,
    } as const;
    const request = { method: 'POST', url: 'http://127.0.0.1:4010/plants', headers: {}, label: 'valid' };
    const report = failedReport([{ ...finding, request }], 'http://127.0.0.1:4010');
    const dir = await mkdtemp(join(tmpdir(), 'plantstore-regressions-'));
    try {
      const files = await emitRegressions(report, dir);
      expect(files.map((f) => f.path)).toEqual([join(dir, 'no-server-errors-1.test.ts')]);
      expect((await readdir(dir)).sort()).toEqual(['no-server-errors-1.test.ts', ...RUNTIME_FILES].sort());
      for (const file of RUNTIME_FILES) expect(await readFile(join(dir, file), 'utf8')).toBe(await readFile(runtimeSource(file), 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
