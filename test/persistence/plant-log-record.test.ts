import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from '../../src/store/plant-log-record.js';
import type { StoreChange } from '../../src/store/memory-store.js';
import { plantItem } from '../../src/store/plant-store.js';

describe('tenant log records', () => {
  it('round-trips every kind of change of any collection, int64 kept exactly wherever it is in the fields', () => {
    const big = 9007199254740993n;
    const changes: StoreChange[] = [
      { kind: 'create', item: plantItem({ id: big, name: 'n', tag: 't' }) },
      { kind: 'create', item: plantItem({ id: -(2n ** 63n), name: 'a\nb\u2028\ud800' }) },
      { kind: 'create', item: { id: 'rex', fields: { id: 'rex', owner: { ids: [1, -big, 'x/y~'] }, 'a/b~c': big, nothing: null } } },
      { kind: 'replace', item: { id: 7n, fields: { id: 7, name: 'renamed', weight: 1.5 } } },
      // Keys the "id" field does not hold exactly as the key: written apart.
      { kind: 'create', item: { id: 7n, fields: { name: 'no id field' } } },
      { kind: 'create', item: { id: 5n, fields: { id: '5' } } },
      { kind: 'create', item: { id: '5', fields: { id: 5 } } },
      { kind: 'create', item: { id: 'x', fields: { id: 'y' } } },
      { kind: 'create', item: { id: big, fields: { id: 9007199254740992 } } },
      { kind: 'delete', id: 2n ** 63n - 1n },
      { kind: 'delete', id: '1' },
      { kind: 'reset' },
      { kind: 'allocate', value: 12n },
      {
        kind: 'seed',
        items: [
          { id: big, fields: { id: big } },
          { id: 2n, fields: { id: 2 } },
        ],
        allocated: big,
      },
      { kind: 'seed', items: [] },
    ];
    for (const change of changes) {
      for (const collection of ['pets', 'plants']) {
        const line = encodeRecord(collection, change);
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
        expect(decodeRecord(line.slice(0, -1), 'token:0123456789abcdef')).toEqual({
          ok: true,
          record: { tenant: 'token:0123456789abcdef', collection, change },
        });
      }
    }
    // The file names the tenant, and plants are the collection a record names only when it is another.
    // ... nor the key, when the "id" field holds it.
    expect(encodeRecord('plants', changes[0]!)).toBe('{"kind":"create","fields":{"id":"9007199254740993","name":"n","tag":"t"},"bigints":["/id"]}\n');
    expect(encodeRecord('pets', { kind: 'create', item: { id: 'rex', fields: { id: 'rex' } } })).toBe(
      '{"collection":"pets","kind":"create","fields":{"id":"rex"}}\n',
    );
    expect(encodeRecord('pets', { kind: 'create', item: { id: 5n, fields: { id: '5' } } })).toBe(
      '{"collection":"pets","kind":"create","id":"5","fields":{"id":"5"}}\n',
    );
    expect(encodeRecord('pets', { kind: 'reset' })).toBe('{"collection":"pets","kind":"reset"}\n');
    // A string key and an integer key that spell the same stay apart.
    expect(encodeRecord('pets', { kind: 'delete', id: '1' })).toContain('"key":"1"');
    expect(encodeRecord('pets', { kind: 'delete', id: 1n })).toContain('"id":"1"');
  });

  it('reads the records of the previous version (tenant and collection named), whatever file they are in', () => {
    const line =
      '{"tenant":"shared","collection":"pets","kind":"create","key":"rex","fields":{"chip":"9007199254740993","id":"9007199254740993"},"bigints":["/chip","/id"]}';
    expect(decodeRecord(line, 'token:0123456789abcdef')).toEqual({
      ok: true,
      record: {
        tenant: 'shared',
        collection: 'pets',
        change: { kind: 'create', item: { id: 'rex', fields: { chip: 9007199254740993n, id: 9007199254740993n } } },
      },
    });
    expect(decodeRecord('{"tenant":"shared","collection":"plants","kind":"delete","id":"5"}')).toEqual({
      ok: true,
      record: { tenant: 'shared', collection: 'plants', change: { kind: 'delete', id: 5n } },
    });
  });

  it('reads the records of earlier versions (no collection) as plants', () => {
    expect(decodeRecord('{"tenant":"shared","kind":"create","id":"9007199254740993","name":"n","tag":"t"}')).toEqual({
      ok: true,
      record: { tenant: 'shared', collection: 'plants', change: { kind: 'create', item: plantItem({ id: 9007199254740993n, name: 'n', tag: 't' }) } },
    });
    expect(decodeRecord('{"tenant":"shared","kind":"delete","id":"5"}')).toEqual({
      ok: true,
      record: { tenant: 'shared', collection: 'plants', change: { kind: 'delete', id: 5n } },
    });
    expect(decodeRecord('{"tenant":"shared","kind":"reset"}')).toEqual({
      ok: true,
      record: { tenant: 'shared', collection: 'plants', change: { kind: 'reset' } },
    });
  });

  it('says why a line is not a record', () => {
    const reasons = [
      ['{"tenant":"shared","kind":"create","id":"9223372036854775808","name":"x"}', /outside int64/],
      ['{"tenant":"shared","kind":"create","id":"-0","name":"x"}', /not a decimal integer string/],
      ['{"tenant":"shared","kind":"delete","id":5}', /not a decimal integer string/],
      ['{"tenant":"shared","kind":"create","id":"1"}', /without a "name"/],
      ['{"tenant":"shared","kind":"create","id":"1","name":"x","tag":3}', /"tag" is not a string/],
      ['{"kind":"reset"}', /no "tenant"/],
      ['{"kind":"create","id":"7","fields":{"id":"8"},"bigints":["/id"]}', /no "tenant"/],
      ['{"tenant":"shared","kind":"upsert"}', /unknown "kind" "upsert"/],
      ['[1]', /not a JSON object/],
      ['{"tenant":"shared","collection":"pets","kind":"create","id":"1","fields":{"id":"x"},"bigints":["/id"]}', /holds no digits/],
      ['{"tenant":"shared","collection":"pets","kind":"create","id":"1"}', /without a "fields" object/],
      ['{"tenant":"shared","kind":"create","fields":{"id":1.5}}', /neither "id" nor "key"/],
      ['{"tenant":"shared","kind":"create","fields":{"id":"9223372036854775808"},"bigints":["/id"]}', /neither "id" nor "key"/],
      ['{"tenant":"shared","collection":"pets","kind":"allocate","value":-1}', /"value" is not a count/],
      ['{"tenant":"shared","collection":"","kind":"reset"}', /"collection" is not a name/],
      ['{"tenant":', /not valid JSON/],
    ] as const;
    for (const [line, reason] of reasons) {
      const decoded = decodeRecord(line);
      expect(decoded.ok).toBe(false);
      expect(!decoded.ok && decoded.reason).toMatch(reason);
    }
  });
});
