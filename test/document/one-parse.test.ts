/**
 * A document's text is parsed once, with the parser prism's $ref parser uses (parseDocumentText),
 * and handed to prism: the operations must be exactly those prism builds reading the file itself.
 */
import { readFileSync } from 'node:fs';
import { readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAsOpenApi3 } from '../../src/core/openapi/swagger2.js';
import { requestPath } from '../../src/core/openapi/operation.js';
import { loadDocument } from '../../src/index.js';
import { getHttpOperationsFromSpec } from '../../src/core/prism/adapter.js';
import { parseDocumentText } from '../../src/core/prism/document.js';
import { hasDuplicateKey, parseStrictJson } from '../../src/core/prism/json-text.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;
const saved = process.env.PLANTSTORE_CACHE_DIR;
let directory: string;

beforeAll(async () => {
  process.env.PLANTSTORE_CACHE_DIR = 'off';
  directory = await mkdtemp(join(tmpdir(), 'plantstore-parse-'));
});

afterAll(async () => {
  if (saved === undefined) delete process.env.PLANTSTORE_CACHE_DIR;
  else process.env.PLANTSTORE_CACHE_DIR = saved;
  await rm(directory, { recursive: true, force: true });
});

/** Keys in order, all the way down: deep equality ignores key order, the mocker's iteration does not. */
function keyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([name, inner]) => [name, keyOrder(inner)]);
}

describe('one parse of the document', () => {
  it('gives, for every fixture document, the operations prism builds from the file', async () => {
    const names = (await readdir(FIXTURES)).filter((name) => /\.(ya?ml|json)$/.test(name) && !name.endsWith('.resources.json'));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const path = join(FIXTURES, name);
      const fresh = await getHttpOperationsFromSpec(path);
      // A document of webhooks only (webhook-example) has no operation to serve.
      if (fresh.length === 0) continue;
      const loaded = await loadDocument(path);
      // Each on the path a request for it takes (Box's "#" alternatives: requestPath).
      const onRoutes = fresh.map((operation) => (operation.path.includes('#') ? { ...operation, path: requestPath(operation.path) } : operation));
      // A Swagger 2.0 document's file fields and base path, read as OpenAPI 3 says them (swagger2.ts); nothing else differs.
      const document = parseDocumentText(readFileSync(path, 'utf8')) as Readonly<Record<string, unknown>>;
      expect(isDeepStrictEqual(loaded.operations, readAsOpenApi3(onRoutes, document)), name).toBe(true);
    }
  }, 120_000);

  it('reads a .json document with JSON.parse, as prism does: the operations prism builds from each fixture written as JSON', async () => {
    const names = (await readdir(FIXTURES)).filter((name) => /\.ya?ml$/.test(name));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const path = join(directory, name.replace(/\.ya?ml$/, '.json'));
      await writeFile(path, JSON.stringify(parseDocumentText(readFileSync(join(FIXTURES, name), 'utf8')), null, 1));
      const fresh = await getHttpOperationsFromSpec(path);
      if (fresh.length === 0) continue;
      const loaded = await loadDocument(path);
      expect(isDeepStrictEqual(loaded.operations, fresh), name).toBe(true);
      expect(keyOrder(loaded.operations), name).toEqual(keyOrder(fresh));
    }
  }, 120_000);

  it('a .json document that is not JSON is read as YAML; one with a duplicate key is refused, naming the line', async () => {
    const yamlInside = join(directory, 'yaml-inside.json');
    await writeFile(
      yamlInside,
      'openapi: 3.1.0\ninfo: { title: YAML inside, version: "1" }\npaths:\n  /a:\n    get:\n      responses: { "200": { description: ok } }\n',
    );
    expect((await loadDocument(yamlInside)).title).toBe('YAML inside');
    const duplicate = join(directory, 'duplicate.json');
    await writeFile(duplicate, '{\n "openapi": "3.1.0",\n "info": { "title": "t", "version": "1" },\n "paths": {},\n "paths": {}\n}\n');
    await expect(loadDocument(duplicate)).rejects.toThrow(/not valid YAML or JSON: duplicate key at line 5/);
  });

  it('finds a duplicate key wherever it is, and only there', () => {
    expect(hasDuplicateKey('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}')).toBe(false);
    expect(hasDuplicateKey('{"a":1,"b":{"a":2,"a":3}}')).toBe(true);
    expect(hasDuplicateKey('{"x":[{"k":1,"k":2}]}')).toBe(true);
    expect(hasDuplicateKey('{"a":1,"\\u0061":2}')).toBe(true);
    expect(hasDuplicateKey('{"a\\"b":1,"a\\\\":{"a\\"b":2}}')).toBe(false);
    expect(hasDuplicateKey('{"s":"{\\"s\\":1, \\"s\\": [,]}","t":"\\\\","t2":{}, "u":[1,"]",{}],"s2":1}')).toBe(false);
    expect(hasDuplicateKey('{"e":{},"e":[]}')).toBe(true);
    expect(parseStrictJson('{"a":1,"a":2}')).toBeUndefined();
    expect(parseStrictJson('a: 1')).toBeUndefined();
    expect(parseStrictJson('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
  });

  it('refuses a document with a duplicate key, naming the line', async () => {
    const path = join(directory, 'duplicate.yaml');
    await writeFile(path, 'openapi: 3.1.0\ninfo:\n  title: t\n  version: "1"\npaths: {}\npaths: {}\n');
    await expect(loadDocument(path)).rejects.toThrow(/not valid YAML or JSON: duplicate key at line 6/);
  });

  it('reads a JSON document and keeps its title', async () => {
    const path = join(directory, 'doc.json');
    const document = {
      openapi: '3.1.0',
      info: { title: 'JSON one', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
    };
    await writeFile(path, JSON.stringify(document));
    const loaded = await loadDocument(path);
    expect(loaded.title).toBe('JSON one');
    expect(loaded.operations.map((operation) => operation.path)).toEqual(['/a']);
  });
});
