import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from '../../src/store/plant-log-record.js';
import type { StoreChange } from '../../src/store/plant-store.js';

describe('plant log records', () => {
  it('round-trips every kind of change with exact int64 ids', () => {
    const changes: StoreChange[] = [
      { kind: 'create', plant: { id: 9007199254740993n, name: 'n', tag: 't' } },
      { kind: 'create', plant: { id: -(2n ** 63n), name: 'a\nb\u2028\ud800' } },
      { kind: 'delete', id: 2n ** 63n - 1n },
      { kind: 'reset' },
    ];
    for (const change of changes) {
      const line = encodeRecord('token:0123456789abcdef', change);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      expect(decodeRecord(line.slice(0, -1))).toEqual({ ok: true, record: { tenant: 'token:0123456789abcdef', change } });
    }
    expect(encodeRecord('shared', changes[0]!)).toBe('{"tenant":"shared","kind":"create","id":"9007199254740993","name":"n","tag":"t"}\n');
  });

  it('says why a line is not a record', () => {
    const reasons = [
      ['{"tenant":"shared","kind":"create","id":"9223372036854775808","name":"x"}', /outside int64/],
      ['{"tenant":"shared","kind":"create","id":"-0","name":"x"}', /not a decimal integer string/],
      ['{"tenant":"shared","kind":"delete","id":5}', /not a decimal integer string/],
      ['{"tenant":"shared","kind":"create","id":"1"}', /without a "name"/],
      ['{"tenant":"shared","kind":"create","id":"1","name":"x","tag":3}', /"tag" is not a string/],
      ['{"kind":"reset"}', /no "tenant"/],
      ['{"tenant":"shared","kind":"upsert"}', /unknown "kind" "upsert"/],
      ['[1]', /not a JSON object/],
      ['{"tenant":', /not valid JSON/],
    ] as const;
    for (const [line, reason] of reasons) {
      const decoded = decodeRecord(line);
      expect(decoded.ok).toBe(false);
      expect(!decoded.ok && decoded.reason).toMatch(reason);
    }
  });
});
