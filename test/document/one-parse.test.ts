/**
 * A document's text is parsed once, with the parser prism's $ref parser uses (parseDocumentText),
 * and handed to prism: the operations must be exactly those prism builds reading the file itself.
 */
import { readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/index.js';
import { getHttpOperationsFromSpec } from '../../src/core/prism/adapter.js';

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
      expect(isDeepStrictEqual(loaded.operations, fresh), name).toBe(true);
    }
  }, 120_000);

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
