/**
 * The operations cache (src/document/operations-cache.ts): a start with a document seen before must
 * serve exactly what prism-http builds from it, and any doubt about an entry means building afresh.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledSpecPath, loadDocument } from '../../src/index.js';
import { controlSpecPath } from '../../src/control/control-document.js';
import { cacheDirectory, decodeEntry, encodeEntry } from '../../src/core/openapi/operations-cache.js';
import { getHttpOperationsFromSpec } from '../../src/core/prism/adapter.js';
import { getHttpDocumentFromSpec } from '../../src/core/prism/document.js';
import { shippedFile } from '../../src/core/openapi/load-document.js';

const PETS = new URL('../fixtures/pets.yaml', import.meta.url).pathname;
const PUBLIC = shippedFile('spec/plant-store-public.yaml');
const DOCUMENTS = { bundled: bundledSpecPath(), control: controlSpecPath(), pets: PETS, public: PUBLIC };

let directory: string;
const saved = process.env.PLANTSTORE_CACHE_DIR;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plantstore-cache-test-'));
  process.env.PLANTSTORE_CACHE_DIR = join(directory, 'cache');
});

afterEach(async () => {
  if (saved === undefined) delete process.env.PLANTSTORE_CACHE_DIR;
  else process.env.PLANTSTORE_CACHE_DIR = saved;
  await rm(directory, { recursive: true, force: true });
});

const entries = async () => (await readdir(join(directory, 'cache')).catch(() => [])).filter((name) => name.endsWith('.json'));

/** Keys in order, all the way down: deep equality ignores key order, the mocker's iteration does not. */
function keyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([name, inner]) => [name, keyOrder(inner)]);
}

describe('the operations cache', () => {
  for (const [name, path] of Object.entries(DOCUMENTS)) {
    it(`${name}: cached operations deep-equal (and keep the key order of) freshly built ones`, async () => {
      const fresh = await getHttpOperationsFromSpec(path);
      const first = await loadDocument(path);
      expect(await entries()).toHaveLength(1);
      const second = await loadDocument(path);
      expect(isDeepStrictEqual(second.operations, fresh)).toBe(true);
      expect(isDeepStrictEqual(first.operations, fresh)).toBe(true);
      expect(keyOrder(second.operations)).toEqual(keyOrder(fresh));
      expect({ ...second, operations: [] }).toEqual({ ...first, operations: [] });
      const document = await getHttpDocumentFromSpec(path);
      expect(isDeepStrictEqual(document.operations, fresh)).toBe(true);
      expect(keyOrder(document.operations)).toEqual(keyOrder(fresh));
      expect(isDeepStrictEqual(second.webhooks, document.webhooks)).toBe(true);
      expect(second.pathExtensions).toEqual(document.pathExtensions);
      // Read so that a signal stops it (verify's): its operations built one at a time, the same ones.
      const stoppable = await getHttpDocumentFromSpec(path, undefined, new AbortController().signal);
      expect(isDeepStrictEqual(stoppable.operations, fresh)).toBe(true);
      expect(keyOrder(stoppable.operations)).toEqual(keyOrder(fresh));
      expect(isDeepStrictEqual(stoppable.webhooks, document.webhooks)).toBe(true);
      expect(keyOrder(stoppable.webhooks)).toEqual(keyOrder(document.webhooks));
    });
  }

  it("a recursive schema (decycle leaves a $ref, bundleTarget then runs): built one at a time, the operations are prism's", async () => {
    const path = join(directory, 'tree.json');
    const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } };
    const answer = { description: 'a tree', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } };
    const paths = {
      '/trees': { get: { responses: { '200': answer } }, post: { requestBody: answer, responses: { '201': answer } } },
      '/trees/{id}': { get: { responses: { '200': answer } } },
    };
    await writeFile(path, JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas: { Node: node } } }));
    const fresh = await getHttpOperationsFromSpec(path);
    const stoppable = await getHttpDocumentFromSpec(path, undefined, new AbortController().signal);
    expect(JSON.stringify(fresh)).toContain('$ref');
    expect(isDeepStrictEqual(stoppable.operations, fresh)).toBe(true);
    expect(keyOrder(stoppable.operations)).toEqual(keyOrder(fresh));
  });

  it("stops reading once its signal is aborted, with the signal's reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted by SIGTERM'));
    await expect(loadDocument(PUBLIC, controller.signal)).rejects.toThrow('interrupted by SIGTERM');
    await expect(getHttpDocumentFromSpec(PUBLIC, undefined, controller.signal)).rejects.toThrow('interrupted by SIGTERM');
  });

  it('keeps the webhooks prism builds no operations for (the public Plant Store: newPlant, carrying a NewPlant)', async () => {
    await loadDocument(PUBLIC);
    const { webhooks } = await loadDocument(PUBLIC);
    expect(webhooks.map((webhook) => [webhook.name, webhook.method])).toEqual([['newPlant', 'post']]);
    const schema = webhooks[0]?.request?.body?.contents?.[0]?.schema as { allOf?: unknown[] } | undefined;
    expect(schema?.allOf).toHaveLength(2);
  });

  it("keeps path items' x- extensions ($refs resolved), which prism drops", async () => {
    const path = join(directory, 'extended.yaml');
    await writeFile(
      path,
      [
        'openapi: 3.1.0',
        'info: { title: Extended, version: "1" }',
        'paths:',
        '  /things:',
        '    x-plantstore: { id: code, assignedBy: client }',
        '    summary: not an extension',
        '    get:',
        '      responses: { "200": { description: ok } }',
        '',
      ].join('\n'),
    );
    const fresh = await loadDocument(path);
    expect(fresh.pathExtensions).toEqual({ '/things': { 'x-plantstore': { id: 'code', assignedBy: 'client' } } });
    expect((await loadDocument(path)).pathExtensions).toEqual(fresh.pathExtensions);
    expect(fresh.webhooks).toEqual([]);
  });

  it('an entry of the former format (operations only, no webhooks) is not read as one of this format', async () => {
    const document = { title: 't', version: 'v', operations: [], webhooks: [], pathExtensions: {} };
    const text = encodeEntry('k', document) as string;
    const { webhooks: _webhooks, pathExtensions: _extensions, ...former } = JSON.parse(text) as Record<string, unknown>;
    expect(decodeEntry(text, 'k')).toEqual(document);
    expect(decodeEntry(JSON.stringify(former), 'k')).toBeUndefined();
  });

  it('a start finds its document in the cache (an entry that was edited in place is what it gets)', async () => {
    const path = join(directory, 'pets.yaml');
    await copyFile(PETS, path);
    await loadDocument(path);
    const [entry] = await entries();
    const file = join(directory, 'cache', entry as string);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"title":"Pets and Plants"', '"title":"from the cache"'));
    expect((await loadDocument(path)).title).toBe('from the cache');
  });

  it('a changed document is built afresh, under a new key', async () => {
    const path = join(directory, 'pets.yaml');
    await copyFile(PETS, path);
    await loadDocument(path);
    await writeFile(path, (await readFile(path, 'utf8')).replace('title: Pets and Plants', 'title: Changed Petstore'));
    expect((await loadDocument(path)).title).toBe('Changed Petstore');
    expect(await entries()).toHaveLength(2);
  });

  it('ignores and rebuilds an entry that is truncated, not JSON, not an entry, or unreadable', async () => {
    const fresh = await getHttpOperationsFromSpec(PETS);
    await loadDocument(PETS);
    const [entry] = await entries();
    const file = join(directory, 'cache', entry as string);
    const good = await readFile(file, 'utf8');
    for (const bad of [good.slice(0, good.length / 2), 'not json', '[]', JSON.stringify({ ...JSON.parse(good), key: 'another' })]) {
      await writeFile(file, bad);
      expect(isDeepStrictEqual((await loadDocument(PETS)).operations, fresh)).toBe(true);
      expect(await readFile(file, 'utf8')).not.toBe(bad);
    }
    await rm(file);
    await mkdir(file);
    expect(isDeepStrictEqual((await loadDocument(PETS)).operations, fresh)).toBe(true);
  });

  it('a cache folder that cannot be written only means no cache', async () => {
    await writeFile(join(directory, 'cache'), 'a file where the folder should be');
    const document = await loadDocument(PETS);
    expect(isDeepStrictEqual(document.operations, await getHttpOperationsFromSpec(PETS))).toBe(true);
  });

  it('does not cache a document with an external $ref (that file could change without these bytes changing)', async () => {
    await writeFile(join(directory, 'schemas.yaml'), 'Plant:\n  type: object\n  properties:\n    name: { type: string }\n');
    const path = join(directory, 'external.yaml');
    await writeFile(
      path,
      [
        'openapi: 3.0.3',
        'info: { title: External, version: "1" }',
        'paths:',
        '  /plants:',
        '    get:',
        '      operationId: listPlants',
        '      responses:',
        '        "200":',
        '          description: ok',
        '          content:',
        '            application/json:',
        "              schema: { $ref: './schemas.yaml#/Plant' }",
        '',
      ].join('\n'),
    );
    expect((await loadDocument(path)).operations).toHaveLength(1);
    expect(await entries()).toHaveLength(0);
  });

  it('PLANTSTORE_CACHE_DIR=off turns it off; XDG_CACHE_HOME, then ~/.cache, are the defaults', async () => {
    process.env.PLANTSTORE_CACHE_DIR = 'off';
    await loadDocument(PETS);
    expect(await entries()).toHaveLength(0);
    expect(cacheDirectory({ PLANTSTORE_CACHE_DIR: 'off' })).toBeUndefined();
    expect(cacheDirectory({ XDG_CACHE_HOME: '/x' })).toBe('/x/plantstore');
    expect(cacheDirectory({})).toMatch(/[/\\]\.cache[/\\]plantstore$/);
  });

  it('keeps undefined values where they were, and refuses what JSON cannot carry', () => {
    const document = {
      title: 't',
      version: 'v',
      operations: [{ a: undefined, b: [undefined, 1], c: 'plantstore:undefined' }] as never,
      webhooks: [],
      pathExtensions: {},
    };
    const decoded = decodeEntry(encodeEntry('k', document) as string, 'k');
    expect(isDeepStrictEqual(decoded, document)).toBe(true);
    expect(keyOrder(decoded?.operations)).toEqual(keyOrder(document.operations));
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const extra = Object.assign([1, 2], { note: 'x' });
    const holeAndExtra = Object.assign([1, , 3], { note: 'x' });
    const unusual = [Number.NaN, Infinity, -0, 10n, new Date(0), Symbol('s'), () => 1, Object.create(null), sparse, extra, holeAndExtra];
    for (const value of [...unusual, { toJSON: () => 'x' }, { [Symbol('s')]: 1 }, new Map([[1, 2]])]) {
      expect(encodeEntry('k', { ...document, operations: [{ value }] as never })).toBeUndefined();
    }
  });
});

describe('the operations cache stays bounded', () => {
  it('past 125 entries keeps the 100 most recently used, and drops temporary files left over a minute ago', async () => {
    const cache = join(directory, 'cache');
    // The public Plant Store's entry, written two hours ago and read (used) now: it is kept.
    await loadDocument(PUBLIC);
    const [used] = await entries();
    const older = new Date(Date.now() - 7_200_000);
    await utimes(join(cache, used as string), older, older);
    await loadDocument(PUBLIC);
    const old = new Date(Date.now() - 3_600_000);
    for (let index = 0; index < 130; index++) {
      const file = join(cache, `${index.toString(16).padStart(64, '0')}.json`);
      await writeFile(file, '{}');
      await utimes(file, old, old);
    }
    await writeFile(join(cache, 'left.over.tmp'), '');
    await utimes(join(cache, 'left.over.tmp'), old, old);
    await writeFile(join(cache, 'being.written.tmp'), '');
    await loadDocument(PETS);
    const names = await readdir(cache);
    expect(names.filter((name) => name.endsWith('.json'))).toHaveLength(100);
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual(['being.written.tmp']);
    // The entries just written and just used (the only names not made of leading zeros) are among those kept.
    expect(names.filter((name) => name.endsWith('.json') && !name.startsWith('0000000000'))).toHaveLength(2);
    expect(names).toContain(used);
  });

  it('up to 125 entries removes none', async () => {
    const cache = join(directory, 'cache');
    await mkdir(cache, { recursive: true });
    for (let index = 0; index < 110; index++) await writeFile(join(cache, `${index.toString(16).padStart(64, '0')}.json`), '{}');
    await loadDocument(PETS);
    expect(await entries()).toHaveLength(111);
  });
});
