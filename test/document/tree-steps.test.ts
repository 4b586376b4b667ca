/**
 * prism's reading of a document, with two of its steps done by tree-steps.ts instead of
 * @stoplight/json: the result must be exactly prism's (deep-equal and in the same key order) on
 * every fixture, on a document with cycles, and on a large document made to order.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPrism, getHttpOperationsFromSpec } from '../../src/core/prism/adapter.js';
import { getHttpDocumentFromSpec } from '../../src/core/prism/document.js';
import { bundlesToItself, decycle } from '../../src/core/prism/tree-steps.js';
import { bundledSpecPath } from '../../src/index.js';
// @ts-expect-error a bench helper, plain JavaScript
import { largeDocument } from '../../bench/lib/large-document.mjs';

type JsonModule = typeof import('@stoplight/json');
const json = fromPrism('@stoplight/json') as JsonModule;
const RefParser = fromPrism('@stoplight/json-schema-ref-parser') as new () => { dereference(path: string): Promise<unknown> };

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** Keys in order, all the way down: deep equality ignores key order, the mocker's iteration does not. */
function keyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([name, inner]) => [name, keyOrder(inner)]);
}

/** Trees, lists, a schema that refers to itself through allOf, all reached from several operations. */
const CYCLIC = {
  openapi: '3.0.3',
  info: { title: 'Cycles', version: '1' },
  paths: {
    '/nodes': {
      parameters: [{ name: 'depth', in: 'query', schema: { $ref: '#/components/schemas/Depth' } }],
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } },
        },
      },
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tagged' } } } } },
      },
    },
    '/nodes/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pair' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Depth: { type: 'integer', minimum: 0 },
      Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      Tagged: { allOf: [{ $ref: '#/components/schemas/Node' }, { type: 'object', properties: { next: { $ref: '#/components/schemas/Tagged' } } }] },
      Pair: { type: 'object', properties: { left: { $ref: '#/components/schemas/Node' }, right: { $ref: '#/components/schemas/Node' } } },
    },
  },
};

let directory: string;
const documents: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plantstore-tree-steps-'));
  for (const folder of ['', 'documents/']) {
    for (const name of await readdir(join(FIXTURES, folder))) {
      if (/\.(ya?ml|json)$/.test(name) && !name.endsWith('.resources.json')) documents.push(join(FIXTURES, folder, name));
    }
  }
  documents.push(bundledSpecPath());
  await writeFile(join(directory, 'cyclic.json'), JSON.stringify(CYCLIC));
  await writeFile(join(directory, 'made.json'), largeDocument(60_000));
  documents.push(join(directory, 'cyclic.json'), join(directory, 'made.json'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("prism's reading with tree-steps.ts", () => {
  it("decycle: the same tree as @stoplight/json's, cycles included", async () => {
    expect(documents.length).toBeGreaterThan(20);
    let cycles = 0;
    for (const path of documents) {
      const dereferenced = await new RefParser().dereference(path);
      const theirs = json.decycle(dereferenced);
      const ours = decycle(json, dereferenced);
      expect(isDeepStrictEqual(ours, theirs), path).toBe(true);
      expect(keyOrder(ours), path).toEqual(keyOrder(theirs));
      if (JSON.stringify(theirs).includes('"$ref":"#/')) cycles++;
    }
    // The comparison covered pointers to cycles, not only plain copies.
    expect(cycles).toBeGreaterThan(0);
    const looped: Record<string, unknown> = { a: [{ b: 1 }] };
    (looped.a as unknown[]).push(looped, { deeper: { back: looped.a, 'x/y~z': {} } });
    expect(decycle(json, looped)).toEqual(json.decycle(looped));
    expect(decycle(json, looped)).toEqual({ a: [{ b: 1 }, { $ref: '#' }, { deeper: { back: { $ref: '#/a' }, 'x/y~z': {} } }] });
  });

  it('bundlesToItself: only where bundleTarget hands the operation back unchanged', async () => {
    const document = { paths: {}, components: { schemas: { A: { type: 'string' } } } };
    const plain = { responses: [{ schema: { type: 'object', properties: { a: { type: 'string' } } } }] };
    const withRef = { responses: [{ schema: { $ref: '#/components/schemas/A' } }] };
    const bundle = (target: object) =>
      json.bundleTarget({ document: { ...document, __target__: structuredClone(target) }, path: '#/__target__', cloneDocument: false });
    expect(bundlesToItself(document, plain)).toBe(true);
    expect(bundle(plain)).toEqual(plain);
    expect(bundlesToItself(document, withRef)).toBe(false);
    expect(bundle(withRef)).not.toEqual(withRef);
    expect(bundlesToItself({ ...document, __errors__: {} }, plain)).toBe(false);
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    expect(bundlesToItself(document, cyclic)).toBe(false);
    const shared = { type: 'string' };
    expect(bundlesToItself(document, { left: shared, right: shared })).toBe(true);
  });

  it("gives prism's operations (deep-equal, same key order) for every fixture, a cyclic and a made-to-order document", async () => {
    for (const path of documents) {
      const fresh = await getHttpOperationsFromSpec(path);
      const read = await getHttpDocumentFromSpec(path);
      expect(isDeepStrictEqual(read.operations, fresh), path).toBe(true);
      expect(keyOrder(read.operations), path).toEqual(keyOrder(fresh));
    }
  }, 120_000);
});
