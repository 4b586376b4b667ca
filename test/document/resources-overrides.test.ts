/**
 * Settling inference (src/core/resources/infer.ts, overrides.ts): the config file's `resources`
 * wins over the document's x-plantstore, which wins over inference; an override naming a path or a
 * property the document lacks is an error naming both, never silently ignored.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import type { ResourceOverride } from '../../src/core/resources/model.js';
import { PlantstoreError } from '../../src/core/errors.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;
const ambiguous = () => loadDocument(`${FIXTURES}ambiguous.yaml`);

function thrown(run: () => unknown): PlantstoreError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlantstoreError) return error;
    throw error;
  }
  throw new Error('expected a PlantstoreError');
}

describe('overrides settle what inference cannot', () => {
  it('a config override names the identifier of an ambiguous collection: the resource appears, its source "config", the note goes', async () => {
    const model = inferResources(await ambiguous(), { '/things': { id: 'code' } });
    const things = model.resources.find((resource) => resource.collectionPath === '/things');
    expect(things).toMatchObject({ name: 'things', itemPath: '/things/{key}', source: 'config' });
    expect(things?.identifier).toEqual({ parameter: 'key', property: 'code', assignedBy: 'client', type: { kind: 'string' } });
    expect(model.notes.map((note) => note.subject)).not.toContain('/things');
  });

  it('without it, /things is no resource and its note says exactly what to write', async () => {
    const model = inferResources(await ambiguous());
    expect(model.resources.map((resource) => resource.collectionPath)).not.toContain('/things');
    const note = model.notes.find((note) => note.subject === '/things');
    expect(note?.level).toBe('ambiguous');
    expect(note?.message).toContain('"resources": { "/things": { "id": "code" } }');
    expect(note?.message).toContain('x-plantstore: { id: code } on the path item /things');
  });

  it('the config wins over x-plantstore, key by key (the extension says sku, the config code and a name)', async () => {
    const model = inferResources(await ambiguous(), { '/parts': { id: 'code', name: 'components' } });
    const parts = model.resources.find((resource) => resource.collectionPath === '/parts');
    expect(parts).toMatchObject({ name: 'components', source: 'config', identifier: { property: 'code', assignedBy: 'client' } });
    expect(inferResources(await ambiguous()).resources.find((resource) => resource.collectionPath === '/parts')?.identifier.property).toBe('sku');
  });

  it('assignedBy chooses the side (server: the create body is not searched) and stateful: false leaves a collection to the mocker', async () => {
    const document = await loadDocument(`${FIXTURES}petstore.yaml`);
    expect(inferResources(document).resources[0]?.identifier.assignedBy).toBe('client');
    const model = inferResources(document, { '/pets': { assignedBy: 'server' } });
    // Pet is both the create body and the read answer: nothing is added by the server, so nothing fits.
    expect(model.resources).toEqual([]);
    expect(model.notes[0]).toMatchObject({ subject: '/pets', level: 'ambiguous' });
    expect(inferResources(document, { '/pets': { stateful: false } })).toEqual({
      resources: [],
      notes: [{ subject: '/pets', level: 'info', message: `left to the mocker: "stateful": false in the config file's resources["/pets"]` }],
    });
  });

  it('an override naming a property the items lack is a config error naming the path and the property', async () => {
    const document = await loadDocument(`${FIXTURES}petstore-expanded.yaml`);
    const error = thrown(() => inferResources(document, { '/pets': { id: 'serial' } }));
    expect(error.code).toBe('PST_ERR_CONFIG');
    expect(error.message).toContain(`the config file's resources["/pets"]`);
    expect(error.message).toContain('"id": "serial" is not a property of /pets\'s items');
    expect(error.message).toContain('name, tag');
  });

  it('client-assigned needs the property in the create body; a path the document lacks; a malformed override', async () => {
    const expanded = await loadDocument(`${FIXTURES}petstore-expanded.yaml`);
    expect(thrown(() => inferResources(expanded, { '/pets': { id: 'id', assignedBy: 'client' } })).message).toContain(
      'the create body of /pets has no property "id"',
    );
    expect(thrown(() => inferResources(expanded, { '/plants': { id: 'id' } })).message).toContain(
      'the document has no path /plants (its paths: /pets, /pets/{id})',
    );
    expect(thrown(() => inferResources(expanded, { '/pets/{id}': { id: 'id' } })).message).toContain('/pets/{id} has no create (POST) nor list');
    const bad = { assignedBy: 'someone' } as unknown as ResourceOverride;
    expect(thrown(() => inferResources(expanded, { '/pets': bad })).message).toBe(
      `the config file's resources["/pets"]: "assignedBy" cannot be "someone" (one of "client", "server", "either")`,
    );
    const unknown = { identifier: 'id' } as unknown as ResourceOverride;
    expect(thrown(() => inferResources(expanded, { '/pets': unknown })).message).toContain('unknown key "identifier"');
  });

  it('a wrong x-plantstore is a document error; one on a path that is no collection too', async () => {
    const base = await ambiguous();
    const wrong = { ...base, pathExtensions: { ...base.pathExtensions, '/parts': { 'x-plantstore': { id: 'nothing' } } } };
    const error = thrown(() => inferResources(wrong));
    expect(error.code).toBe('PST_ERR_DOCUMENT');
    expect(error.message).toContain('x-plantstore on the path item /parts (or its POST): "id": "nothing" is not a property of /parts\'s items');
    const misplaced = { ...base, pathExtensions: { '/things/{key}': { 'x-plantstore': { id: 'code' } } } };
    expect(thrown(() => inferResources(misplaced)).message).toContain(
      '/things/{key} has no create (POST) nor list (GET answering an array) operation: it is not a collection',
    );
  });

  it('a name given twice is refused; inferred names that clash are qualified by their parent', async () => {
    const document = await loadDocument(`${FIXTURES}owners-pets.yaml`);
    expect(inferResources(document).resources.map((resource) => resource.name)).toEqual(['owners', 'owners.pets', 'shelters.pets']);
    expect(thrown(() => inferResources(document, { '/owners': { name: 'pets' }, '/owners/{ownerId}/pets': { name: 'pets' } })).message).toContain(
      'resource name "pets"',
    );
  });
});

describe('envelopes: inferred, named by an override, and named in the advice', () => {
  const conduit = () => loadDocument(`${FIXTURES}conduit.yaml`);
  const answersWrappedPath = new URL('../resources/documents/answers-wrapped.yaml', import.meta.url).pathname;
  const answersWrapped = () => loadDocument(answersWrappedPath);
  const readYaml = async () => parseYaml(await readFile(answersWrappedPath, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  // The same document with a create body that names none of the post's properties.
  const otherBody = (document: { components: { schemas: Record<string, unknown> } }) => {
    document.components.schemas.NewPost = {
      type: 'object',
      required: ['headline', 'text'],
      properties: { headline: { type: 'string' }, text: { type: 'string' } },
    };
    return document;
  };

  it('the banner’s own advice for Conduit ("id": "slug") now starts, through the inferred envelope', async () => {
    const articles = inferResources(await conduit(), { '/articles': { id: 'slug' } }).resources.find((resource) => resource.name === 'articles');
    expect(articles).toMatchObject({
      identifier: { property: 'slug', assignedBy: 'server' },
      envelope: { request: 'article', answer: 'article' },
      source: 'config',
    });
  });

  it('"envelope": false reads the bodies as they are: Conduit\'s articles are then no resource, as before', async () => {
    const model = inferResources(await conduit(), { '/articles': { envelope: false } });
    expect(model.resources.map((resource) => resource.name)).not.toContain('articles');
    expect(model.notes.find((note) => note.subject === '/articles')?.level).toBe('ambiguous');
  });

  it("answers alone wrapped, the create body the item bare: the envelope is the answers' (DigitalOcean's style)", async () => {
    const [posts] = inferResources(await answersWrapped()).resources;
    expect(posts).toMatchObject({ identifier: { property: 'slug', assignedBy: 'server' }, envelope: { answer: 'post' }, source: 'inferred' });
    expect(posts?.envelope?.request).toBeUndefined();
  });

  it('a bare create body that shares no property with the wrapped item: no resource, and the note names the envelope to settle it with', async () => {
    const model = inferResources(await loadDocument(otherBody(await readYaml())));
    expect(model.resources).toEqual([]);
    const note = model.notes.find((candidate) => candidate.subject === '/posts');
    expect(note?.message).toContain('"resources": { "/posts": { "id": "headline", "envelope": "post" } }');
    expect(note?.message).toContain('x-plantstore: { id: headline, envelope: post }');
  });

  it('"id" alone on such a document says to add "envelope"; with it the answers are unwrapped and the create body kept as it is', async () => {
    const document = await loadDocument(otherBody(await readYaml()));
    const refusal = thrown(() => inferResources(document, { '/posts': { id: 'slug' } }));
    expect(refusal.message).toContain('they wrap the item in "post": add "envelope": "post"');
    const posts = inferResources(document, { '/posts': { id: 'slug', envelope: 'post' } }).resources[0];
    expect(posts).toMatchObject({ identifier: { property: 'slug', assignedBy: 'server' }, envelope: { answer: 'post' } });
    expect(posts?.envelope?.request).toBeUndefined();
  });

  it('an envelope that wraps nothing, or of the wrong type, is an error naming it', async () => {
    expect(thrown(() => inferResources(document, { '/posts': { envelope: 'nope' } })).message).toContain('"envelope": "nope" wraps nothing');
    expect(thrown(() => inferResources(document, { '/posts': { envelope: 3 as never } })).message).toContain('"envelope" cannot be 3');
  });
  let document: Awaited<ReturnType<typeof answersWrapped>>;
  beforeAll(async () => {
    document = await answersWrapped();
  });
});
