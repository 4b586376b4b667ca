import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJournal, type JournalRecord } from '../../src/journal/journal.js';
import { createRecordRing, headersOfLines } from '../../src/journal/ring.js';

const LIMIT = 64;

const record = (request: JournalRecord['request'], response: JournalRecord['response'] = { headers: {}, body: '' }): JournalRecord => ({
  arrivedAt: 1_764_300_000_123,
  tenant: 'shared',
  operation: 'createPlant',
  method: 'POST',
  path: '/plants',
  query: '',
  status: 200,
  durationMs: 0.25,
  validation: { ok: true },
  fault: undefined,
  violations: undefined,
  request,
  response,
});

/** A body as the journal would show its bytes. */
const bytesOf = (body: Buffer | string) => (typeof body === 'string' ? Buffer.from(body) : body);

describe('the journal ring (records packed into columns)', () => {
  it('gives back every field, the header lines and the kept bytes of each body exactly', () => {
    const line = fc.string({ unit: fc.constantFrom(...'aZ09-_ ,;=:/*\t'.split('')), maxLength: 12 });
    const body = fc.oneof(
      fc.uint8Array({ maxLength: LIMIT * 2 }).map((bytes) => Buffer.from(bytes)),
      fc.string({ unit: 'binary', maxLength: LIMIT * 2 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), body, body, fc.nat(3), (lines, requestBody, responseBody, slot) => {
        const headerLines = lines.length % 2 === 0 ? lines : lines.slice(1);
        const ring = createRecordRing(4, LIMIT);
        const given = record({ headers: headerLines, body: requestBody }, { headers: { 'content-type': 'text/plain' }, body: responseBody });
        ring.put(slot, given, 7);
        const back = ring.get(slot);
        const { request, response, ...fields } = given;
        expect(back).toMatchObject({ ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)), sequence: 7 });
        expect(back.request.headers).toEqual(headerLines);
        expect(back.response.headers).toEqual({ 'content-type': 'text/plain' });
        for (const [sent, kept] of [
          [request.body, back.request],
          [response.body, back.response],
        ] as const) {
          const bytes = bytesOf(sent);
          // What the journal shows of a body: its first LIMIT bytes, and its whole size.
          expect(bytesOf(kept.body).subarray(0, LIMIT)).toEqual(bytes.subarray(0, LIMIT));
          expect(kept.size ?? bytesOf(kept.body).length).toBe(bytes.length);
          expect(bytesOf(kept.body).length).toBeLessThanOrEqual(Math.max(LIMIT, typeof sent === 'string' ? bytes.length : 0));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lets go of a slot: nothing of a dropped record stays referenced', () => {
    const ring = createRecordRing(2, LIMIT);
    ring.put(0, record({ headers: ['Host', 'a'], body: Buffer.from('{"a":1}') }), 1);
    const charge = ring.charge(0);
    expect(charge).toBe('Host\na'.length + '{"a":1}'.length);
    ring.free(0);
    expect(ring.fields(0)).toMatchObject({ tenant: undefined, path: undefined, operation: undefined });
  });

  it('shows header lines as Node names them, every value of a repeated header, and no prototype to reach', () => {
    const shown = headersOfLines(['Content-Type', 'application/json', 'X-Tag', 'a', 'x-tag', 'b', '__proto__', 'x', 'Authorization', 'Bearer one']);
    expect(Object.entries(shown)).toEqual([
      ['content-type', 'application/json'],
      ['x-tag', ['a', 'b']],
      ['__proto__', 'x'],
      ['authorization', 'Bearer one'],
    ]);
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
  });

  it('masks every value of a credential header sent twice, as it masks one', () => {
    const journal = createJournal(10);
    journal.record(record({ headers: ['Authorization', 'Bearer s3cret', 'authorization', 'Bearer other-s3cret', 'Cookie', 'sid=abc'], body: '' }));
    const [entry] = journal.entries();
    expect(entry?.request.headers).toEqual({ authorization: 'Bearer ***, Bearer ***', cookie: 'sid=***' });
    expect(JSON.stringify(entry)).not.toContain('s3cret');
  });

  it('keeps the byte bound: a clear by tenant keeps the others with their weight', () => {
    const journal = createJournal(10, { bytes: 100 });
    for (const tenant of ['a', 'b', 'a', 'b']) journal.record({ ...record({ headers: ['Host', 'h'], body: Buffer.alloc(20, 120) }), tenant });
    expect(journal.entries().map((entry) => entry.tenant)).toEqual(['b', 'a', 'b']);
    journal.clear('a');
    expect(journal.entries().map((entry) => [entry.tenant, entry.sequence])).toEqual([
      ['b', 2],
      ['b', 4],
    ]);
    for (let index = 0; index < 3; index += 1) journal.record(record({ headers: ['Host', 'h'], body: Buffer.alloc(20, 120) }));
    // 26 bytes a record (header text and body) against 100: the oldest went.
    expect(journal.entries().map((entry) => entry.sequence)).toEqual([5, 6, 7]);
  });
});
