/**
 * serve --watch, over real HTTP: an edited document is served within 2 s, stored plants survive
 * it, and a broken one keeps the last good document served while health says why.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { bundledSpecPath } from '../../src/core/openapi/load-document.js';
import { AUTH, plantText, postPlant, send } from '../support/server.js';

/** Issue 11's bound: an edit is served within 2 s. */
const SETTLE_MS = 2000;
/** For checks beside that bound: a new document's first load can take longer on a loaded machine. */
const LOADED_MS = 8000;

/** Polls `probe` until it holds, for at most `withinMs`; returns whether it did. */
async function eventually(probe: () => Promise<boolean>, withinMs = SETTLE_MS): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The Plant Store with NewPlant requiring `tag` as well as `id`. */
function requiringTag(original: string): string {
  const at = original.indexOf('    NewPlant:');
  const tail = original.slice(at).replace('required: [id]', 'required: [id, tag]');
  expect(tail).not.toBe(original.slice(at));
  return original.slice(0, at) + tail;
}

/** Saves as editors do: a new file renamed over the old one. */
async function saveAsEditor(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

interface Health {
  readonly document: { readonly title: string };
  readonly reload?: { readonly at: string; readonly ok: boolean; readonly error?: string };
}

describe('serve --watch', () => {
  let dir: string;
  let file: string;
  let original: string;
  let server: RunningServer;
  const lines: string[] = [];
  const health = async (): Promise<Health> => (await send(`${server.url}/__control/health`)).json as Health;
  const createUntagged = (id: number) => postPlant(server.url, plantText({ name: 'Fern', id }));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plantstore-watch-'));
    file = join(dir, 'plant-store.yaml');
    original = await readFile(bundledSpecPath(), 'utf8');
    await writeFile(file, original);
    server = await startServer({ port: 0, spec: file, watch: true, logLevel: 'info', log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    // close() must end the watch: a leaked handle would keep vitest's worker alive (and this would time out).
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves an edit within 2 s, keeps what was stored, and keeps the last good document when the new one is broken', async () => {
    expect((await createUntagged(1)).status).toBe(200);
    expect(await health()).not.toHaveProperty('reload');

    await saveAsEditor(file, requiringTag(original));
    const enforced = await eventually(async () => (await createUntagged(2)).status === 400);
    expect(enforced, 'a create without tag is refused within 2 s of the edit').toBe(true);
    expect((await postPlant(server.url, plantText({ name: 'Fern', tag: 'fern', id: 3 }))).status).toBe(200);
    const kept = await send(`${server.url}/__control/plants/1`, { headers: AUTH });
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({ name: 'Fern' });
    // The status is noted just after the swap (the log line counts the kept items first).
    expect(await eventually(async () => (await health()).reload?.ok === true)).toBe(true);
    expect(lines.some((line) => /watch: reloaded .*kept plants \(\d+ items?\)/.test(line))).toBe(true);

    // Written in place this time (no rename): the watch sees that too.
    await writeFile(file, 'openapi: 3.0.3\npaths: [unclosed\n');
    const refused = await eventually(async () => (await health()).reload?.ok === false, LOADED_MS);
    expect(refused, 'health names the failed reload').toBe(true);
    const failed = (await health()).reload;
    expect(failed?.error).toMatch(/\S/);
    expect(lines.some((line) => line.includes('still serving the last good document'))).toBe(true);
    // Still the last good document: tag still required, stored plants still there.
    expect((await createUntagged(4)).status).toBe(400);
    expect((await postPlant(server.url, plantText({ name: 'Ivy', tag: 'ivy', id: 5 }))).status).toBe(200);
    expect((await send(`${server.url}/__control/plants/3`, { headers: AUTH })).status).toBe(200);

    await saveAsEditor(file, original);
    const fixed = await eventually(async () => (await health()).reload?.ok === true && (await createUntagged(6)).status === 200, LOADED_MS);
    expect(fixed, 'the fixed document is served and health is ok again').toBe(true);
    expect((await health()).reload).not.toHaveProperty('error');
  });

  it('refuses a document without operations and names why', async () => {
    await saveAsEditor(file, 'openapi: 3.0.3\ninfo: {title: Empty, version: "1"}\npaths: {}\n');
    expect(await eventually(async () => (await health()).reload?.ok === false, LOADED_MS)).toBe(true);
    expect((await health()).reload?.error).toMatch(/no operations/);
    expect((await health()).document.title).not.toBe('Empty');
    await saveAsEditor(file, original);
    expect(await eventually(async () => (await health()).reload?.ok === true, LOADED_MS)).toBe(true);
  });
});

/** The Plant Store with a pets resource beside the plants (POST /pets, GET /pets/{id}). */
function withPets(original: string): string {
  const pets = [
    '  /pets:',
    '    post:',
    '      operationId: createPet',
    '      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [id, name], properties: {id: {type: integer, format: int64}, name: {type: string}}}}}}',
    "      responses: {'200': {description: made, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}}",
    "  '/pets/{id}':",
    '    get:',
    '      operationId: getPet',
    '      parameters: [{name: id, in: path, required: true, schema: {type: integer, format: int64}}]',
    "      responses: {'200': {description: found, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}}",
  ].join('\n');
  const next = original.replace('\npaths:\n', `\npaths:\n${pets}\n`);
  expect(next).not.toBe(original);
  return next;
}

describe('serve --watch, resources that come and go', () => {
  it('logs the resources kept, appeared and disappeared', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plantstore-watch-'));
    const file = join(dir, 'plant-store.yaml');
    const original = await readFile(bundledSpecPath(), 'utf8');
    await writeFile(file, original);
    const lines: string[] = [];
    const server = await startServer({ port: 0, spec: file, watch: true, logLevel: 'info', log: (line) => lines.push(line) });
    try {
      expect((await postPlant(server.url, plantText({ name: 'Fern', id: 1 }))).status).toBe(200);
      await saveAsEditor(file, withPets(original));
      const reloaded = () => lines.filter((line) => line.includes('watch: reloaded'));
      expect(await eventually(async () => reloaded().length === 1, LOADED_MS), lines.join('\n')).toBe(true);
      expect(reloaded()[0]).toMatch(/kept plants \(1 item\); appeared pets; disappeared none/);
      expect(server.resources.resources.map((resource) => resource.name).sort()).toEqual(['pets', 'plants']);
      await saveAsEditor(file, original);
      expect(await eventually(async () => reloaded().length === 2, LOADED_MS), lines.join('\n')).toBe(true);
      expect(reloaded()[1]).toMatch(/kept plants \(1 item\); appeared none; disappeared pets/);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('serve without --watch', () => {
  it('does not reload', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plantstore-nowatch-'));
    const file = join(dir, 'plant-store.yaml');
    const original = await readFile(bundledSpecPath(), 'utf8');
    await writeFile(file, original);
    const server = await startServer({ port: 0, spec: file });
    try {
      await saveAsEditor(file, requiringTag(original));
      await new Promise((done) => setTimeout(done, 500));
      expect((await postPlant(server.url, plantText({ name: 'Fern', id: 1 }))).status).toBe(200);
      expect((await send(`${server.url}/__control/health`)).json).not.toHaveProperty('reload');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
