/**
 * A path parameter of fixed values (an enum or a const) names one of a few known things, not an item
 * a create made (Eclipse Ditto's /devops/piggyback/{serviceName}). It was read as the item path of
 * /devops/piggyback, with the command's targetActorSelection as the id: verify then put a created
 * "item" where only things, policies or connectivity may go, and serve's own refusal of it was
 * reported as a valid request refused.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { startServer } from '../../src/index.js';

const DOCUMENT = fileURLToPath(new URL('./documents/fixed-value-paths.yaml', import.meta.url));

describe('a path parameter of fixed values', () => {
  it('is not read as the path of a collection’s items; an ordinary item path still is', async () => {
    const model = inferResources(await loadDocument(DOCUMENT));
    const paths = model.resources.map((resource) => [resource.collectionPath, resource.itemPath]);
    expect(paths).not.toContainEqual(['/commands', '/commands/{serviceName}']);
    expect(paths).toContainEqual(['/notes', '/notes/{noteId}']);
    expect(model.notes.map((note) => note.message)).toContainEqual(expect.stringMatching(/\{serviceName\} takes fixed values/));
  });

  it('leaves serve conforming to the document, as verify judges it', async () => {
    const server = await startServer({ port: 0, spec: DOCUMENT, logLevel: 'silent' });
    try {
      const report = await verify({ target: server.url, spec: DOCUMENT, runs: 30, seed: 27, stateful: true, timeoutMs: 5_000 });
      expect(
        report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message}`),
      ).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
