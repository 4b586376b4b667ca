/**
 * An update by JSON Patch (RFC 6902), the shape of Ory Kratos's PATCH /admin/identities/{id}
 * (test/resources/documents/json-patch.yaml): serve applies the operations to the stored item whole
 * or not at all (src/handlers/resource/json-patch.ts); verify sends the empty patch as its valid
 * request, and conforms. Before, serve refused every patch ("updated by a JSON object").
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { applyJsonPatch } from '../../src/handlers/resource/json-patch.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/json-patch.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };

describe('applyJsonPatch (RFC 6902)', () => {
  it('adds, removes, replaces, moves, copies and tests, as the RFC’s examples do', () => {
    expect(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({ value: { foo: 'bar', baz: 'qux' } });
    expect(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({ value: { foo: ['bar', 'qux', 'baz'] } });
    expect(applyJsonPatch({ foo: ['a'] }, [{ op: 'add', path: '/foo/-', value: 'b' }])).toEqual({ value: { foo: ['a', 'b'] } });
    expect(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ value: { foo: 'bar' } });
    expect(applyJsonPatch({ baz: 'qux' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({ value: { baz: 'boo' } });
    expect(applyJsonPatch({ foo: { bar: 'baz', waldo: 'fred' }, qux: {} }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({
      value: { foo: { bar: 'baz' }, qux: { thud: 'fred' } },
    });
    expect(applyJsonPatch({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }])).toEqual({ value: { a: { b: 1 }, c: { b: 1 } } });
    expect(
      applyJsonPatch({ '/': 9, '~1': 10 }, [
        { op: 'test', path: '/~01', value: 10 },
        { op: 'remove', path: '/~1' },
      ]),
    ).toEqual({ value: { '~1': 10 } });
    expect(applyJsonPatch({ n: 9007199254740993n }, [{ op: 'test', path: '/n', value: 9007199254740993n }])).toEqual({ value: { n: 9007199254740993n } });
  });

  it('refuses, naming the operation, what cannot apply, and leaves the item as it was', () => {
    const item = { baz: 'qux', list: [1] };
    for (const patch of [
      [{ op: 'test', path: '/baz', value: 'bar' }],
      [{ op: 'remove', path: '/nothing' }],
      [{ op: 'add', path: '/list/5', value: 2 }],
      [{ op: 'replace', path: 'baz', value: 1 }],
      [{ op: 'frobnicate', path: '/baz' }],
      [{ op: 'move', from: '/list', path: '/list/0' }],
      [
        { op: 'add', path: '/a', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ],
    ]) {
      expect(applyJsonPatch(item, patch)).toEqual({ refusal: expect.stringMatching(/^operation \d \(/) });
    }
    expect(item).toEqual({ baz: 'qux', list: [1] });
    expect(applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }])).toEqual({
      value: JSON.parse('{"__proto__":{"polluted":true}}'),
    });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('serve of an update by JSON Patch', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const patch = (id: string, body: unknown) =>
    send(`${server.current.url}/identities/${id}`, { method: 'PATCH', headers: JSON_TYPE, body: JSON.stringify(body) });

  it('applies the operations to the stored item, or refuses the patch and changes nothing', async () => {
    const created = await send(`${server.current.url}/identities`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"schema_id":"default","traits":{"email":"a@b.c"}}',
    });
    const id = (created.json as { id: string }).id;
    const patched = await patch(id, [
      { op: 'replace', path: '/traits/email', value: 'x@y.z' },
      { op: 'add', path: '/state', value: 'inactive' },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id, traits: { email: 'x@y.z' }, state: 'inactive' });
    expect(
      (
        await patch(id, [
          { op: 'test', path: '/state', value: 'active' },
          { op: 'remove', path: '/traits' },
        ])
      ).status,
    ).toBe(400);
    // Refused with the status the operation declares (400): an item no longer valid, another id, no patch at all.
    expect((await patch(id, [{ op: 'replace', path: '/state', value: 'gone' }])).text).toMatch(/no longer be valid/);
    expect((await patch(id, [{ op: 'replace', path: '/id', value: 'another' }])).text).toMatch(/keeps its identifier/);
    expect((await patch(id, { traits: {} })).status).toBe(400);
    expect((await send(`${server.current.url}/identities/${id}`)).json).toMatchObject({ id, traits: { email: 'x@y.z' }, state: 'inactive' });
    expect((await send(`${server.current.url}/identities/${id}`, { method: 'PATCH' })).status).toBe(200);
  });

  it('is judged by verify as conforming: the empty patch is its valid request', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 30, seed: 27, stateful: true, timeoutMs: 5_000 });
    expect(
      report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message}`),
    ).toEqual([]);
  }, 60_000);
});
