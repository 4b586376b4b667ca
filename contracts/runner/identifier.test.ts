import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/core/resources/model.js';
import { jsonObject, toJsonText, type JsonValue } from '../generators/json-value.js';
import type { RequestCase } from './case-source.js';
import { freshenId, freshIdValue, idIn, runIdentifierOf, withIdIn, type RunIdentifier } from './identifier.js';
import { cryptoRandom64 } from './ids.js';
import { codePoints, freshenString, freshString, keepsRules, stringIdSchema } from './string-ids.js';

function bodyCase(entries: Array<[string, JsonValue]>): RequestCase {
  const payload = jsonObject(entries);
  return { kind: 'valid', target: 'body', method: 'POST', path: '/parts', headers: { 'content-type': 'application/json' }, payload, body: toJsonText(payload) };
}

function stringResource(schema: Record<string, unknown>): Resource {
  return {
    name: 'parts',
    collectionPath: '/parts',
    parentParameters: [],
    identifier: { property: 'sku', assignedBy: 'client', type: { kind: 'string' } },
    operations: {},
    createSchema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string', ...schema }, code: { type: 'string' } } },
    webhooks: [],
    source: 'extension',
  };
}

const draw = (identifier: RunIdentifier | undefined, n = 500) => Array.from({ length: n }, () => freshIdValue(cryptoRandom64, identifier));

describe('the run identifier of a resource', () => {
  it('carries a string identifier by its own property, with its length and pattern', () => {
    const identifier = runIdentifierOf(stringResource({ minLength: 10, maxLength: 12, pattern: '^[a-z0-9]+$' }));
    expect(identifier).toMatchObject({ property: 'sku', kind: 'string', rules: { minLength: 10, maxLength: 12 } });
  });

  it('is none for a server-assigned identifier (the client sends none)', () => {
    const resource = stringResource({});
    expect(runIdentifierOf({ ...resource, identifier: { ...resource.identifier, assignedBy: 'server' } })).toBeUndefined();
  });

  it('says why no never-used string can be drawn: too short a maxLength, a format, an enum, a pattern with few values', () => {
    const reason = (schema: Record<string, unknown>) => {
      const identifier = runIdentifierOf(stringResource(schema));
      return identifier?.kind === 'string' ? identifier.unfreshable : 'not a string identifier';
    };
    expect(reason({ maxLength: 4 })).toMatch(/maxLength 4/);
    expect(reason({ format: 'email' })).toMatch(/format "email"/);
    expect(reason({ enum: ['a', 'b'] })).toMatch(/enum/);
    expect(reason({ pattern: '^[A-Z]{3}$' })).toMatch(/too few different values/);
    expect(reason({ pattern: '^PS-[0-9a-f]{8}$' })).toBeUndefined();
    expect(reason({})).toBeUndefined();
  });
});

describe('fresh string ids', () => {
  it('are all different and keep minLength, maxLength and pattern', () => {
    for (const schema of [{}, { minLength: 20 }, { maxLength: 9 }, { pattern: '^PS-[0-9a-f]{8}$' }, { pattern: '^[A-Z][a-z]+$', maxLength: 30 }]) {
      const identifier = runIdentifierOf(stringResource(schema));
      const read = stringIdSchema('sku', { type: 'string', ...schema });
      if (!('rules' in read)) throw new Error(`no rules for ${JSON.stringify(schema)}: ${read.unfreshable}`);
      const ids = draw(identifier);
      expect(
        ids.every((id) => typeof id === 'string' && keepsRules(id, read.rules)),
        JSON.stringify(schema),
      ).toBe(true);
      expect(new Set(ids).size, JSON.stringify(schema)).toBe(ids.length);
    }
  });

  it('read a pattern only the non-unicode reading takes (as the generators do), and say so of one no reading takes', () => {
    const read = stringIdSchema('sku', { type: 'string', pattern: '^x\\-[a-z0-9]{8,20}$' });
    if (!('rules' in read)) throw new Error(read.unfreshable);
    expect(freshString(read.rules, cryptoRandom64)).toMatch(/^x-[a-z0-9]{8,20}$/);
    expect(stringIdSchema('sku', { type: 'string', pattern: '(' })).toEqual({ unfreshable: expect.stringMatching(/not a regular expression/) as unknown });
  });

  it('are none where the identifier cannot have them', () => {
    expect(freshIdValue(cryptoRandom64, { property: 'sku', kind: 'string', unfreshable: 'maxLength 4' })).toBeUndefined();
  });

  it('freshen a long generated value in its tail (length and first characters kept), and keep a short one literal', () => {
    const rules = { minLength: 0 };
    expect(freshenString('', rules, cryptoRandom64)).toEqual({ value: '', freshness: 'literal' });
    expect(freshenString('🌱', rules, cryptoRandom64)).toEqual({ value: '🌱', freshness: 'literal' });
    const long = '🌱\u0000abcdefghijklmnopq';
    const sent = freshenString(long, rules, cryptoRandom64);
    expect(sent.freshness).toBe('fresh');
    expect(codePoints(sent.value)).toBe(codePoints(long));
    expect(sent.value.startsWith('🌱\u0000abcdefg')).toBe(true);
    expect(sent.value).not.toBe(long);
    // A tail the pattern would refuse: sent as generated.
    expect(freshenString('ABCDEFGHIJKLMNOP', { minLength: 0, pattern: /^[A-Z]+$/u }, cryptoRandom64).freshness).toBe('literal');
  });

  it('draw a uuid for a uuid identifier, and freshen a generated uuid in its own case', () => {
    const uuid: RunIdentifier = { property: 'ref', kind: 'uuid' };
    expect(freshIdValue(cryptoRandom64, uuid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(freshenId('00000000-0000-0000-0000-000000000000', uuid, cryptoRandom64).freshness).toBe('literal');
    const upper = freshenId('A1B2C3D4-0000-4000-8000-00000000000F', uuid, cryptoRandom64);
    expect(upper.freshness).toBe('fresh');
    expect(upper.value).toBe(String(upper.value).toUpperCase());
  });

  it('draw within maxLength even where the preferred length (16) does not fit', () => {
    expect(freshString({ minLength: 0, maxLength: 8 }, cryptoRandom64)).toHaveLength(8);
  });
});

describe('ids in a body, by the identifier property', () => {
  const sku: RunIdentifier = { property: 'sku', kind: 'string', rules: { minLength: 0 } };

  it('reads and replaces the identifier property, not "id"', () => {
    const part = bodyCase([
      ['id', 7],
      ['sku', ''],
      ['code', 'x'],
    ]);
    expect(idIn(part, sku)).toBe('');
    expect(withIdIn(part, 'k3x9', sku)?.body).toBe('{"id":7,"sku":"k3x9","code":"x"}');
    // No identifier: the top-level integer id, as always.
    expect(idIn(part, undefined)).toBe(7n);
    expect(withIdIn(part, 9n, undefined)?.body).toBe('{"id":9,"sku":"","code":"x"}');
  });

  it('never puts a value of another type in (an integer where a string is, or back)', () => {
    const part = bodyCase([['sku', 'abc']]);
    expect(withIdIn(part, 5n, sku)).toBeUndefined();
    expect(withIdIn(bodyCase([['sku', 5]]), 'abc', sku)).toBeUndefined();
  });
});
