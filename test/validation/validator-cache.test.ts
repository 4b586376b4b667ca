import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { IHttpParam } from '@stoplight/types';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonValue } from '../../src/core/json/exact-json.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { compileBodyCheck, compileParameterCheck } from '../../src/core/prism/adapter.js';
import { widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import { writeValidator } from '../../src/core/prism/validator-cache.js';

/**
 * The validator cache (core/prism/validator-cache.ts) keeps each compiled validator as Ajv
 * standalone code. A validator read back from it must accept and refuse exactly what a freshly
 * compiled one does, word for word; an entry that is corrupt, truncated, misplaced or not private
 * must be ignored (compiled afresh, and written again), never run.
 */
const saved = process.env.PLANTSTORE_CACHE_DIR;
const root = mkdtempSync(join(tmpdir(), 'validator-cache-'));
let folder = '';
let round = 0;
beforeEach(() => {
  folder = join(root, `cache-${round++}`);
  process.env.PLANTSTORE_CACHE_DIR = folder;
});
afterEach(() => {
  if (saved === undefined) delete process.env.PLANTSTORE_CACHE_DIR;
  else process.env.PLANTSTORE_CACHE_DIR = saved;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const entries = () => readdirSync(join(folder, 'validators')).filter((name) => name.endsWith('.js'));

/** Formats, patterns, enums (deep equality), lengths (UCS-2), int64 bounds, $refs into a bundle, a 2020-12 draft. */
const RICH = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['when', 'kind'],
  additionalProperties: false,
  properties: {
    when: { type: 'string', format: 'date-time' },
    mail: { type: 'string', format: 'email' },
    link: { type: 'string', format: 'uri' },
    kind: { enum: ['fern', 'cactus', { deep: [1] }] },
    code: { type: 'string', pattern: '^[A-Z]{2}\\d+$', maxLength: 6 },
    size: {
      oneOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', minLength: 1 },
      ],
    },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
    id: { type: 'integer', format: 'int64' },
    part: { $ref: '#/__bundled__/Part' },
  },
} as const;
const BUNDLE = {
  Part: { type: 'object', required: ['n'], properties: { n: { type: 'number', multipleOf: 0.5, maximum: 10 }, next: { $ref: '#/__bundled__/Part' } } },
};

const anyish = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue());
/** Arbitrary values as the reader hands them on (bigints for integers past 2^53). */
const values: fc.Arbitrary<JsonValue> = fc
  .oneof(
    fc.jsonValue(),
    fc.record(
      {
        name: anyish,
        tag: anyish,
        id: fc.oneof(fc.integer(), fc.bigInt(), fc.constantFrom(2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n) - 1n), anyish),
        when: fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.constantFrom('2026-02-30T10:00:00Z', '2026-11-27T25:00:00Z'),
          anyish,
        ),
        mail: fc.oneof(fc.constantFrom('a@b.example', 'a@', '@b'), anyish),
        link: fc.oneof(fc.constantFrom('https://x.example/a?b#c', 'not a uri', 'urn:isbn:0'), anyish),
        kind: fc.oneof(fc.constantFrom('fern', 'cactus', 'rose'), fc.constant({ deep: [1] }), fc.constant({ deep: [2] }), anyish),
        code: fc.oneof(fc.constantFrom('AB12', 'AB1234567', 'ab12'), anyish),
        size: anyish,
        tags: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'c', 'd')), anyish),
        part: fc.oneof(fc.constantFrom({ n: 1.5 }, { n: 11 }, { n: 0.3 }, { n: 1, next: { n: 2, next: {} } }), anyish),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  )
  .map((value) => value as JsonValue);

/** A body check compiled three ways: without the cache, on a miss (written), and read back from the entry. */
function threeWays(schema: object, operation: object | undefined) {
  process.env.PLANTSTORE_CACHE_DIR = 'off';
  const fresh = compileBodyCheck(schema, operation, 'request');
  process.env.PLANTSTORE_CACHE_DIR = folder;
  const written = compileBodyCheck(schema, operation, 'request');
  const read = compileBodyCheck(schema, operation, 'request');
  if (!fresh || !written || !read) throw new Error('nothing to check');
  return { fresh, written, read };
}

describe('a cached validator judges exactly as a freshly compiled one', () => {
  it('for the Plant Store request body and for formats, patterns, enums, int64 bounds and $refs', async () => {
    const [operation] = (await loadDocument()).operations;
    const plant = operation?.request?.body?.contents?.[0]?.schema;
    if (!plant) throw new Error('the Plant Store declares a request body');
    for (const [schema, owner] of [
      [plant, operation],
      [RICH, { __bundled__: BUNDLE }],
    ] as const) {
      const before = entries.length;
      const { fresh, written, read } = threeWays(schema, owner);
      fc.assert(
        fc.property(values, (value) => {
          const expected = fresh(value);
          expect(written(value)).toEqual(expected);
          expect(read(value)).toEqual(expected);
        }),
        { numRuns: 500, seed: 20261127 },
      );
      expect(entries().length).toBeGreaterThan(before);
    }
    // Both verdicts were seen (a comparison of two always-true checks would prove nothing).
    const { read } = threeWays(RICH, { __bundled__: BUNDLE });
    expect(read({ when: '2026-11-27T10:00:00Z', kind: 'fern', part: { n: 1.5 } })).toBeUndefined();
    expect(read({ when: '2026-02-30T10:00:00Z', kind: 'fern', part: { n: 11 } })?.map((diagnostic) => diagnostic.message)).toEqual([
      'Request body property when must match format "date-time"',
      'Request body property part.n must be <= 10',
    ]);
  });

  it("with the linear pattern engine: Eclipse Ditto's definition pattern on a 60,000-character value", () => {
    const schema = { type: 'string', pattern: '([_a-zA-Z0-9\\-.]+):([_a-zA-Z0-9\\-.]+):([_a-zA-Z0-9\\-.]+)' };
    const { written, read } = threeWays(schema, undefined);
    const long = 'a'.repeat(60_000) + ':';
    const started = performance.now();
    expect(written(long)).toBeDefined();
    expect(read(long)).toBeDefined();
    expect(read('a:b:c')).toBeUndefined();
    // JavaScript's backtracking RegExp takes about 10 s for each of the two (core/regexp/pattern.ts).
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('for parameters, read with type coercion', () => {
    const specs = [
      { id: 'q-limit', name: 'limit', style: 'form', schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { id: 'q-kind', name: 'Kind', style: 'form', required: true, schema: { type: 'string', enum: ['fern', 'cactus'] } },
      { id: 'q-id', name: 'id', style: 'form', schema: widenInt64Bounds({ type: 'integer', format: 'int64' }) },
      { id: 'q-tags', name: 'tags', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 } },
    ] as unknown as IHttpParam[];
    process.env.PLANTSTORE_CACHE_DIR = 'off';
    const fresh = compileParameterCheck(specs, 'query', undefined);
    process.env.PLANTSTORE_CACHE_DIR = folder;
    compileParameterCheck(specs, 'query', undefined);
    expect(entries()).toHaveLength(1);
    const read = compileParameterCheck(specs, 'query', undefined);
    const text = fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('fern', 'cactus', '0', '101', '9223372036854775807', 'a,b', 'abcd,b,c'));
    fc.assert(
      fc.property(fc.record({ limit: text, kind: text, id: text, tags: text }, { requiredKeys: [] }), (query) => {
        expect(read(query)).toEqual(fresh(query));
      }),
      { numRuns: 500, seed: 11 },
    );
    expect(read({ kind: 'fern', limit: '7' })).toBeUndefined();
    expect(read({ kind: 'rose' })).toBeDefined();
  });
});

describe('an entry that cannot be trusted is ignored, compiled afresh and written again', () => {
  const SCHEMA = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } };
  const refused = { name: 'too long' };

  /** Writes the entry, lets `spoil` damage it, then compiles again: the check must still judge, and the entry be whole again. */
  function afterSpoiling(spoil: (file: string, text: string) => void): void {
    compileBodyCheck(SCHEMA, undefined, 'request');
    const [name] = entries();
    if (!name) throw new Error('no entry was written');
    const file = join(folder, 'validators', name);
    const spoiled = readFileSync(file, 'utf8');
    spoil(file, spoiled);
    const check = compileBodyCheck(SCHEMA, undefined, 'request');
    expect(check?.(refused)?.map((diagnostic) => diagnostic.message)).toEqual(['Request body property name must NOT have more than 3 characters']);
    expect(check?.({ name: 'ok' })).toBeUndefined();
    // Written again, whole: its code has the digest its first line names (the code differs only in Ajv's counters).
    const [, key, digest, code] = /^\/\/ plantstore validator 1 ([0-9a-f]{64}) ([0-9a-f]{64})\n([\s\S]*)$/.exec(readFileSync(file, 'utf8')) ?? [];
    expect(`${key}.js`).toBe(name);
    expect(
      createHash('sha256')
        .update(code ?? '')
        .digest('hex'),
    ).toBe(digest);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }

  /** Code that accepts everything: if an entry like it were run, `refused` would pass. */
  const acceptsAll = '"use strict";module.exports = function validate() { return true; };';

  it('code Ajv cannot write standalone is not cached, and the compile does not fail for it', () => {
    expect(() =>
      writeValidator('0'.repeat(64), () => {
        throw new Error('Ajv cannot write this schema standalone');
      }),
    ).not.toThrow();
    expect(existsSync(join(folder, 'validators', `${'0'.repeat(64)}.js`))).toBe(false);
  });

  it('a truncated entry', () => afterSpoiling((file, text) => writeFileSync(file, text.slice(0, text.length - 40))));
  it('an empty entry', () => afterSpoiling((file) => writeFileSync(file, '')));
  it('an entry whose code was changed (its digest no longer matches)', () =>
    afterSpoiling((file, text) => writeFileSync(file, text.replace(/\n[\s\S]*$/, `\n${acceptsAll}`))));
  it('an entry that is not JavaScript', () => afterSpoiling((file, text) => writeFileSync(file, text.replace('function', 'funct(on'))));
  it('an entry written for another key', () =>
    afterSpoiling((file, text) => writeFileSync(file, text.replace(/validator 1 [0-9a-f]{64}/, `validator 1 ${'0'.repeat(64)}`))));
  it('an entry others may write', () =>
    afterSpoiling((file) => {
      chmodSync(file, 0o666);
    }));
  it('a symbolic link in place of an entry', () =>
    afterSpoiling((file, text) => {
      const elsewhere = join(root, `elsewhere-${round}.js`);
      writeFileSync(elsewhere, text, { mode: 0o600 });
      rmSync(file);
      symlinkSync(elsewhere, file);
    }));
});

describe('the cache keeps to its size', () => {
  it('past 2,500 entries keeps the 2,000 most recently used, and drops what a killed process left half-written, once a process', async () => {
    const validators = join(folder, 'validators');
    mkdirSync(validators, { recursive: true, mode: 0o700 });
    const key = (index: number) => createHash('sha256').update(String(index)).digest('hex');
    const code = '"use strict";module.exports = function validate() { return true; };';
    // 2,510 entries, each a second older than the one before; a temporary file a minute old, and one just begun.
    const now = Date.now() / 1000;
    for (let index = 0; index < 2_510; index++) {
      const file = join(validators, `${key(index)}.js`);
      writeFileSync(file, '', { mode: 0o600 });
      utimesSync(file, now - index, now - index);
    }
    const stale = join(validators, `${key(0)}.js.1.a.tmp`);
    const fresh = join(validators, `${key(1)}.js.2.b.tmp`);
    writeFileSync(stale, '');
    utimesSync(stale, now - 120, now - 120);
    writeFileSync(fresh, '');
    // A module of its own: pruning runs at a process's first write, and this file's tests wrote before.
    vi.resetModules();
    const fromScratch = (await import('../../src/core/prism/validator-cache.js')) as typeof import('../../src/core/prism/validator-cache.js');
    // The oldest entry, read two hours after it was written: used now, so it is kept.
    const used = key(2_509);
    fromScratch.writeValidator(used, () => code);
    utimesSync(join(validators, `${used}.js`), now - 7_200, now - 7_200);
    expect(fromScratch.readValidator(used, () => undefined)).toBeTypeOf('function');
    await vi.waitFor(() => expect(entries()).toHaveLength(2_000), { timeout: 10_000 });
    const kept = new Set(entries());
    expect(kept.has(`${used}.js`)).toBe(true);
    expect(kept.has(`${key(0)}.js`)).toBe(true);
    expect(kept.has(`${key(1_998)}.js`)).toBe(true);
    // The rest of the oldest are gone: 2,000 kept of 2,510.
    for (let index = 1_999; index < 2_509; index++) expect(kept.has(`${key(index)}.js`)).toBe(false);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('up to 2,500 entries removes none: a prune at every miss past 2,000 read them all to remove one', async () => {
    const validators = join(folder, 'validators');
    mkdirSync(validators, { recursive: true, mode: 0o700 });
    const key = (index: number) => createHash('sha256').update(`below ${index}`).digest('hex');
    for (let index = 0; index < 2_100; index++) writeFileSync(join(validators, `${key(index)}.js`), '', { mode: 0o600 });
    const stale = join(validators, `${key(0)}.js.1.a.tmp`);
    writeFileSync(stale, '');
    const old = Date.now() / 1000 - 120;
    utimesSync(stale, old, old);
    vi.resetModules();
    const fromScratch = (await import('../../src/core/prism/validator-cache.js')) as typeof import('../../src/core/prism/validator-cache.js');
    fromScratch.writeValidator(key(-1), () => '"use strict";module.exports = function validate() { return true; };');
    await vi.waitFor(() => expect(existsSync(stale)).toBe(false), { timeout: 10_000 });
    expect(entries()).toHaveLength(2_101);
  });
});
