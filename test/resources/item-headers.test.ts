/**
 * Headers an item's answers declare (test/resources/documents/item-headers.yaml, after Eclipse
 * Ditto's API): each read, replace, update and delete writes them as a create and a list do
 * (src/handlers/resource/answer-headers.ts). An ETag names the item's stored version: every answer
 * showing that version carries the same one, and a change gives another. A required header of no
 * known meaning (X-Request-Id) gets its schema's value on every success, a 204 included.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const DEVICES = fileURLToPath(new URL('./documents/item-headers.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STRONG_TAG = /^"[!#-~]+"$/;

describe('an item’s answers that declare headers', () => {
  const server = serverFor({ spec: DEVICES, logLevel: 'silent' });

  it('name the item’s version in an ETag: the same for the same version, another once it changes', async () => {
    const url = `${server.current.url}/devices`;
    const created = await send(url, { method: 'POST', headers: JSON_TYPE, body: '{"deviceId":"d-1","name":"one"}' });
    const read = await send(`${url}/d-1`);
    expect(created.headers.etag).toMatch(STRONG_TAG);
    expect(read.headers.etag).toBe(created.headers.etag);
    const replaced = await send(`${url}/d-1`, { method: 'PUT', headers: JSON_TYPE, body: '{"deviceId":"d-1","name":"uno"}' });
    expect(replaced.status).toBe(204);
    expect(replaced.headers.etag).toMatch(STRONG_TAG);
    expect(replaced.headers.etag).not.toBe(read.headers.etag);
    expect((await send(`${url}/d-1`)).headers.etag).toBe(replaced.headers.etag);
    const updated = await send(`${url}/d-1`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"firmware":"2.1"}' });
    expect(updated.status).toBe(200);
    expect(updated.headers.etag).not.toBe(replaced.headers.etag);
    expect((await send(`${url}/d-1`)).headers.etag).toBe(updated.headers.etag);
  });

  it('a PUT that creates answers 201 with the Location it was put to', async () => {
    const put = await send(`${server.current.url}/devices/d-2`, { method: 'PUT', headers: JSON_TYPE, body: '{"deviceId":"d-2","name":"two"}' });
    expect(put.status).toBe(201);
    expect(put.headers.location).toBe('/devices/d-2');
    expect(put.headers.etag).toBe((await send(`${server.current.url}${put.headers.location}`)).headers.etag);
  });

  it('carry a required X-Request-Id on every success, a delete’s 204 too', async () => {
    const url = `${server.current.url}/devices`;
    await send(url, { method: 'POST', headers: JSON_TYPE, body: '{"deviceId":"d-3","name":"three"}' });
    const answers = [
      await send(`${url}/d-3`),
      await send(`${url}/d-3`, { method: 'PUT', headers: JSON_TYPE, body: '{"deviceId":"d-3","name":"tres"}' }),
      await send(`${url}/d-3`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"name":"drei"}' }),
      await send(`${url}/d-3`, { method: 'DELETE' }),
    ];
    expect(answers.map((reply) => reply.status)).toEqual([200, 204, 200, 204]);
    for (const reply of answers) expect(reply.headers['x-request-id']).toMatch(UUID);
  });

  it('may be read by a browser app on another origin', async () => {
    const reply = await send(`${server.current.url}/devices/none`, { headers: { origin: 'http://app.test' } });
    const exposed = (reply.headers['access-control-expose-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'x-request-id', 'location']));
  });

  it('verify finds the stand-in’s answers as declared, the lifecycle’s reads, replaces, updates and deletes too', async () => {
    const report = await verify({ target: server.current.url, spec: DEVICES, runs: 40, seed: 27, stateful: true, timeoutMs: 5_000 });
    expect(report.checks.find((check) => check.id === 'response-headers-conformance')?.status).toBe('passed');
    expect(
      report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message}`),
    ).toEqual([]);
  }, 120_000);
});
