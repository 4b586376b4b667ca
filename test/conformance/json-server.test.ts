/**
 * verify against a real REST server nobody here wrote (json-server 0.17.4, a dev dependency),
 * seeded with three posts (issue 19): whatever its findings, the run changes nothing it did not
 * create. Afterwards the seeded posts are byte for byte as they were, and the server holds as
 * many posts as before, at --runs 20 and at a larger run, but for what no request can delete and
 * the report lists as left behind (json-server stores an array body as a post without an id). The document describing json-server is
 * test/fixtures/json-server-posts.yaml.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';

const spec = fileURLToPath(new URL('../fixtures/json-server-posts.yaml', import.meta.url));
const bin = fileURLToPath(new URL('../../node_modules/json-server/lib/cli/bin.js', import.meta.url));

const SEEDED = [
  { id: 1, title: 'first post', author: 'ann' },
  { id: 2, title: 'second post', author: 'bob' },
  { id: 3, title: 'third post', author: 'cy' },
];

interface JsonServer {
  readonly url: string;
  readonly db: string;
  readonly process: ChildProcess;
}

/** A free loopback port: bound, read, released (json-server cannot report the port it chose). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function startJsonServer(directory: string): Promise<JsonServer> {
  const db = join(directory, 'db.json');
  await writeFile(db, JSON.stringify({ posts: SEEDED }, null, 2));
  const port = await freePort();
  const child = spawn(process.execPath, [bin, db, '--port', String(port), '--host', '127.0.0.1', '--quiet'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${url}/posts`)).ok) return { url, db, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`json-server did not answer on ${url} within 15 s`);
}

/** The posts as the server answers them, each as its exact bytes. */
async function postsHeld(server: JsonServer): Promise<{ count: number; seeded: string[] }> {
  const all = (await (await fetch(`${server.url}/posts`)).json()) as unknown[];
  const seeded = await Promise.all(SEEDED.map(async ({ id }) => (await fetch(`${server.url}/posts/${id}`)).text()));
  return { count: all.length, seeded };
}

describe('verify against json-server changes nothing it did not create', () => {
  let directory: string;
  let server: JsonServer;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'plantstore-json-server-'));
    server = await startJsonServer(directory);
  });
  afterEach(async () => {
    server.process.kill();
    await new Promise((resolve) => server.process.once('exit', resolve));
    await rm(directory, { recursive: true, force: true });
  });

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
