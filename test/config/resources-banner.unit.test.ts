/** The start banner's resources section (src/cli/resources-banner.ts), from models inferred from real documents. */
import { expect, test } from 'vitest';
import { resourceLines } from '../../src/cli/resources-banner.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { replaceKind } from '../../src/core/conformance/replace-kind.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;
const PARTIAL_PUT = new URL('../resources/documents/partial-put.yaml', import.meta.url).pathname;

test('petstore-expanded: the resource, its identifier, roles by operation name, paging and filters', async () => {
  expect(resourceLines(inferResources(await loadDocument(`${FIXTURES}petstore-expanded.yaml`)))).toEqual([
    'resources:',
    '  pets: /pets and /pets/{id} (inferred)',
    '    id: id (path {id}), server-assigned, int64',
    '    operations: create addPet, list findPets, read find pet by id, delete deletePet',
    '    list: limit ?limit, filters ?tags (tag)',
  ]);
});

test('owners-pets: narrowed integer bounds, merge-patch, a wrapped list, qualified names', async () => {
  const lines = resourceLines(inferResources(await loadDocument(`${FIXTURES}owners-pets.yaml`)));
  expect(lines).toContain('    id: id (path {ownerId}), server-assigned, integer 1..9223372036854775807');
  expect(lines).toContain('  owners.pets: /owners/{ownerId}/pets and /owners/{ownerId}/pets/{petId} (inferred)');
  expect(lines).toContain(
    '    operations: create POST /owners/{ownerId}/pets, list GET /owners/{ownerId}/pets, read GET /owners/{ownerId}/pets/{petId}, update PATCH /owners/{ownerId}/pets/{petId}, delete DELETE /owners/{ownerId}/pets/{petId} (update: merge-patch)',
  );
  expect(lines).toContain('    list: limit ?per_page, page ?page, filters ?species, items in "pets", count in "total"');
});

test('realworld-conduit: the item envelope and the list envelope with its count, as inferred', async () => {
  const lines = resourceLines(inferResources(await loadDocument(`${FIXTURES}realworld-conduit.yaml`)));
  expect(lines).toContain('  articles: /articles and /articles/{slug} (inferred)');
  expect(lines).toContain('    id: slug (path {slug}), server-assigned, string');
  expect(lines).toContain('    envelope: items in {"article": {...}}, requests and answers');
  expect(lines).toContain('    list: limit ?limit, offset ?offset, filters ?tag (in tagList), items in "articles", count in "articlesCount"');
});

test('the notes follow, each with its level and subject; a document with no resource says so', async () => {
  const lines = resourceLines(inferResources(await loadDocument(`${FIXTURES}ambiguous.yaml`)));
  const notes = lines.slice(lines.indexOf('resource notes:') + 1);
  expect(notes).toHaveLength(3);
  expect(notes[0]).toMatch(/^ {2}ambiguous \/things: no resource: .*"resources": \{ "\/things": \{ "id": "code" \} \}/);
  expect(notes[1]).toMatch(/^ {2}ambiguous \/gadgets: no resource: .*"resources": \{ "\/gadgets": \{ "id": "serial" \} \}/);
  expect(notes[2]).toBe('  info /reports: left to the mocker: "stateful": false in x-plantstore on the path item /reports (or its POST)');
  expect(resourceLines(inferResources(await loadDocument(`${FIXTURES}uspto.yaml`)))).toEqual([
    "resources: none inferred (settle them with the config file's resources or x-plantstore)",
  ]);
});

test('swagger-petstore3: an id the client may give, else the server assigns, says so', async () => {
  const lines = resourceLines(inferResources(await loadDocument(`${FIXTURES}swagger-petstore3.yaml`)));
  expect(lines).toContain('  pet: /pet and /pet/{petId} (inferred)');
  expect(lines).toContain('    id: id (path {petId}), client-given or else server-assigned, int64');
  expect(lines).toContain('    id: username (path {username}), client-given or else server-assigned, string');
});

test('articles: the server-made fields and how each is made', async () => {
  const lines = resourceLines(inferResources(await loadDocument(`${FIXTURES}articles.yaml`)));
  expect(lines).toContain('    id: slug (path {slug}), server-assigned, string');
  expect(lines).toContain(
    '    server-made: slug (slug from title), createdAt (created time), updatedAt (updated time), favoritesCount (counter, 0), favorited (flag, false)',
  );
});

test('partial-put: each PUT says whether the body becomes the item or only what it sends changes', async () => {
  const document = await loadDocument(PARTIAL_PUT);
  const lines = resourceLines(inferResources(document), document.operations);
  const block = (name: string) => {
    const start = lines.findIndex((line) => line.startsWith(`  ${name}: `));
    const end = lines.findIndex((line, index) => index > start && /^ {2}\S/.test(line));
    return lines.slice(start, end === -1 ? undefined : end);
  };
  // Box's folder update requires none of what a folder's create requires: a rename keeps the rest.
  expect(block('folders')).toContain('    replace (PUT): updates only the properties sent; the others stay');
  expect(block('notes')).toContain('    replace (PUT): the body becomes the whole item');
  // Without the document's operations (no PUT to read), and for a resource with no PUT, nothing is said.
  expect(resourceLines(inferResources(document)).some((line) => line.includes('replace (PUT)'))).toBe(false);
});

test('a PUT that creates (declares 201) replaces, whatever its body requires: serve and verify read it so', async () => {
  const document = await loadDocument(PARTIAL_PUT);
  const folders = inferResources(document).resources.find((resource) => resource.name === 'folders');
  const put = document.operations.find((operation) => operation.iid === 'put_folders_id');
  if (folders === undefined || put === undefined) throw new Error('partial-put.yaml has no folders PUT');
  expect(replaceKind(folders, put)).toBe('merge');
  expect(replaceKind(folders, { ...put, responses: [...put.responses, { id: '201', code: '201', contents: [], headers: [] }] })).toBe('replace');
});
