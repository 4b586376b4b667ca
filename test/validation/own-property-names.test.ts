/**
 * A JSON object may have properties named toString or valueOf. Ajv's deep equality (fast-deep-equal,
 * for enum, const and uniqueItems) called them, so a body like Eclipse Ditto's
 * {"sources":[{},{"toString":[]}]} (sources: uniqueItems) threw out of validation: serve answered
 * 500. It is now judged like any other body, by serve and by verify's judge alike.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileBodyCheck } from '../../src/core/prism/adapter.js';
import { jsonEqual } from '../../src/core/prism/json-equal.js';
import { send, serverFor } from '../support/server.js';

const SCHEMA = {
  type: 'object',
  properties: {
    sources: { type: 'array', uniqueItems: true, items: { type: 'object' } },
    mode: { enum: [{ kind: 'x' }, 'plain'] },
  },
};

describe('objects with properties named like Object.prototype’s methods', () => {
  it('are compared by their own properties', () => {
    expect(jsonEqual({ toString: [] }, { toString: [] })).toBe(true);
    expect(jsonEqual({ toString: [] }, { toString: [1] })).toBe(false);
    expect(jsonEqual({ valueOf: 1 }, {})).toBe(false);
    expect(jsonEqual([{ a: 1n }], [{ a: 1n }])).toBe(true);
  });

  it('are judged, not thrown on: uniqueItems and enum', () => {
    const check = compileBodyCheck(SCHEMA, undefined, 'request');
    if (check === undefined) throw new Error('a schema to judge by');
    expect(check({ sources: [{}, { toString: [], valueOf: 0 }] } as never)).toBeUndefined();
    expect(check({ sources: [{ toString: [] }, { toString: [] }] } as never)?.[0]?.message).toMatch(/duplicate items/);
    expect(check({ mode: { kind: 'x' } } as never)).toBeUndefined();
    expect(check({ mode: { kind: 'x', toString: 'y' } } as never)?.[0]?.message).toMatch(/allowed values/);
  });

  describe('sent to serve', () => {
    const server = serverFor({ spec: fileURLToPath(new URL('./documents/unique-items.yaml', import.meta.url)), logLevel: 'silent' });
    it('a body with them is answered, never 500', async () => {
      const post = (body: string) => send(`${server.current.url}/connections`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect((await post('{"name":"c","sources":[{},{"toString":[],"valueOf":0}]}')).status).toBe(201);
      expect((await post('{"name":"c","sources":[{"toString":[]},{"toString":[]}]}')).status).toBe(400);
    });
  });
});
