/** The start banner's proxy, watch and base-path lines (src/cli/modes-banner.ts): a user sees when either is on, what is watched, and where else the API answers. */
import { expect, test } from 'vitest';
import { basePathLines, modeLines } from '../../src/cli/modes-banner.js';
import { bundledSpecPath, loadDocument } from '../../src/core/openapi/load-document.js';

test('both off: says so, and what to do instead of --watch', () => {
  expect(modeLines({})).toEqual(['proxy: off (answers come from the stand-in)', 'watch: off (restart to take an edited document, config or seed file)']);
});

test('--proxy names the upstream, and --proxy-strict what it refuses', () => {
  expect(modeLines({ proxy: 'http://localhost:8080' })[0]).toBe(
    'proxy: on, every API request is forwarded to http://localhost:8080 and judged against the document (answers pass unchanged, violations go to the journal); the store is not used',
  );
  expect(modeLines({ proxy: 'http://localhost:8080', proxyStrict: true })[0]).toContain(
    '--proxy-strict: an invalid request is refused, a violating answer becomes a 502 Error',
  );
});

test('--watch names every file it watches: the document, the config and the seed data', () => {
  expect(modeLines({ watch: true })[1]).toBe(`watch: on, reloading when one of these changes (stored items are kept): document ${bundledSpecPath()}`);
  const sources = {
    files: [
      { what: 'config', path: '/srv/plantstore.yaml' },
      { what: 'seed data', path: '/srv/seed.json' },
    ],
    read: () => Promise.resolve({}),
  };
  expect(modeLines({ watch: true, spec: '/srv/api.yaml', optionSources: sources })[1]).toBe(
    'watch: on, reloading when one of these changes (stored items are kept): document /srv/api.yaml, config /srv/plantstore.yaml, seed data /srv/seed.json',
  );
  expect(modeLines({ watch: true, spec: { openapi: '3.0.3' } })[1]).toBe('watch: on, but the document was given as an object: nothing to watch');
});

test("the banner says where else the API answers: under the document's servers' paths", async () => {
  const fixtures = new URL('../fixtures/documents/', import.meta.url).pathname;
  const petstore3 = await loadDocument(`${fixtures}swagger-petstore3.yaml`);
  expect(basePathLines('http://127.0.0.1:4010', petstore3.operations)).toEqual([
    "also answering under http://127.0.0.1:4010/api/v3 (the document's servers; its own paths win where they collide)",
  ]);
  const seed = await loadDocument();
  expect(basePathLines('http://127.0.0.1:4010', seed.operations)).toEqual([]);
});
