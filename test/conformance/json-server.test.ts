/**
 * verify against a real REST server nobody here wrote (json-server 0.17.4, a dev dependency),
 * seeded with three posts (issue 19): whatever its findings, the run changes nothing it did not
 * create. Afterwards the seeded posts are byte for byte as they were, and the server holds as
 * many posts as before, at --runs 20 and at a larger run, but for what no request can delete and
 * the report lists as left behind (json-server stores an array body as a post without an id). The document describing json-server is
 * test/fixtures/json-server-posts.yaml.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startJsonServer, type JsonServer } from '../support/json-server.js';

const spec = fileURLToPath(new URL('../fixtures/json-server-posts.yaml', import.meta.url));

const SEEDED = [
  { id: 1, title: 'first post', author: 'ann' },
  { id: 2, title: 'second post', author: 'bob' },
  { id: 3, title: 'third post', author: 'cy' },
];

/** The posts as the server answers them, each as its exact bytes. */
async function postsHeld(server: JsonServer): Promise<{ count: number; seeded: string[] }> {
  const all = (await (await fetch(`${server.url}/posts`)).json()) as unknown[];
  const seeded = await Promise.all(SEEDED.map(async ({ id }) => (await fetch(`${server.url}/posts/${id}`)).text()));
  return { count: all.length, seeded };
}

describe('verify against json-server changes nothing it did not create', () => {
  let server: JsonServer;
  beforeEach(async () => {
    server = await startJsonServer({ posts: SEEDED }, '/posts');
  });
  afterEach(() => server.stop());

  it.each([20, 100])(
    '--runs %i: the seeded posts byte-identical, the count back to 3 but for what the report lists as left behind',
    { timeout: 180_000 },
    async (runs) => {
      const before = await postsHeld(server);
      const fileBefore = JSON.parse(await readFile(server.db, 'utf8')) as { posts: unknown[] };
      expect(before.count).toBe(3);
      const report = await verify({ target: server.url, spec, runs, seed: 19 });
      expect(report.casesRun).toBeGreaterThan(runs * 10);
      const after = await postsHeld(server);
      expect(after.seeded).toEqual(before.seeded);
      const fileAfter = JSON.parse(await readFile(server.db, 'utf8')) as { posts: unknown[] };
      expect(fileAfter.posts.slice(0, 3)).toEqual(fileBefore.posts);
      // What json-server stores without an id (an array body, accepted as a post) no request can delete: the report lists each one.
      const listed = report.leftBehind ?? [];
      expect(listed.every((items) => items.reason === 'createPost accepted a create and answered no id to delete it by')).toBe(true);
      expect(after.count).toBe(3 + listed.reduce((sum, items) => sum + items.count, 0));
      expect(after.count).toBeLessThanOrEqual(3 + runs / 4);
    },
  );
});
