/**
 * serve --watch with a config file and a seed file (issue 11: "reload the document (and config,
 * seed file) on change"), over real files and HTTP, with the options read as the CLI reads them:
 * a new seed item is stored and stored items are kept, the config's faults are replaced, a change
 * that needs a restart is named, and a broken config or seed keeps the last good one, saying why.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServeOptions, watchedSources } from '../../src/cli/serve.js';
import { readServeFlags } from '../../src/server/options/resolve.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { AUTH, plantText, postPlant, send } from '../support/server.js';

/** A reload is seen within 100 ms; loading the document again can take seconds on a loaded machine. */
const LOADED_MS = 8000;

async function eventually(probe: () => Promise<boolean>, withinMs = LOADED_MS): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function saveAsEditor(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

interface Health {
  readonly watching?: readonly string[];
  readonly reload?: { readonly at: string; readonly ok: boolean; readonly error?: string };
}

const CONFIG = 'seed: seed.json\n';
const FAULTY_CONFIG = 'seed: seed.json\nfaults:\n  - {kind: status, status: 503, operation: createPlant, message: config fault}\n';

describe('serve --watch --config with a seed file', () => {
  let dir: string;
  let config: string;
  let seed: string;
  let server: RunningServer;
  const lines: string[] = [];
  const health = async (): Promise<Health> => (await send(`${server.url}/__control/health`)).json as Health;
  const plantIds = async (): Promise<string[]> => {
    const listed = await send(`${server.url}/__control/plants`, { headers: AUTH });
    return [...listed.text.matchAll(/"id":(\d+)/g)].map((match) => match[1]!);
  };
  /** Waits for the next reload after `count` reloads were logged (taken or refused). */
  const reloads = () => lines.filter((line) => /watch: (reloaded|.* changed but was not taken)/.test(line)).length;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plantstore-watch-config-'));
    config = join(dir, 'plantstore.yaml');
    seed = join(dir, 'seed.json');
    await writeFile(config, CONFIG);
    await writeFile(seed, '[{"id": 1, "name": "Fern"}]');
    const argv = ['--config', config, '--watch', '--port', '0', '--log-level', 'info'];
    const flags = readServeFlags(argv);
    const read = await readServeOptions(argv, flags);
    if (read === 'help') throw new Error('unexpected --help');
    server = await startServer({ ...read.options, optionSources: watchedSources(argv, flags, read.files), log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('watches the document, the config and the seed file the config names (health names them, never their paths)', async () => {
    expect(lines).toContainEqual(expect.stringContaining(`watch: reloading when one of them changes: `));
    expect(lines).toContainEqual(expect.stringContaining(`, ${config}, ${seed}`));
    expect((await health()).watching).toEqual(['document', 'config', "config's seed"]);
    expect(await plantIds()).toEqual(['1']);
  });

  it('stores a plant added to the seed file, keeping the stored ones as they are', async () => {
    expect((await postPlant(server.url, plantText({ id: 2, name: 'Ivy' }))).status).toBe(200);
    await saveAsEditor(seed, '[{"id": 1, "name": "Fern renamed"}, {"id": 3, "name": "Aloe"}]');
    expect(await eventually(async () => (await plantIds()).includes('3')), lines.join('\n')).toBe(true);
    expect(await plantIds()).toEqual(['1', '2', '3']);
    // Plant 1 was stored already: the stored one stays (a client may have changed it).
    expect((await send(`${server.url}/__control/plants/1`, { headers: AUTH })).json).toEqual({ id: 1, name: 'Fern' });
    expect(lines.some((line) => /watch: reloaded .*; seed: 1 new item stored, 1 already stored \(kept as they are\)/.test(line))).toBe(true);
    expect((await health()).reload?.ok).toBe(true);
  });

  it('keeps the last good seed when the seed file breaks, and says why in the log and health', async () => {
    const before = reloads();
    await saveAsEditor(seed, '[{"id": 4}]');
    expect(await eventually(async () => (await health()).reload?.ok === false)).toBe(true);
    expect((await health()).reload?.error).toMatch(/seed\.json.*name/);
    expect(reloads()).toBe(before + 1);
    expect(lines).toContainEqual(expect.stringMatching(/watch: .*seed\.json changed but was not taken; still serving the last good document: .*seed\.json/));
    expect(await plantIds()).toEqual(['1', '2', '3']);
    expect((await postPlant(server.url, plantText({ id: 5, name: 'Moss' }))).status).toBe(200);
  });

  it("takes the config's faults, and names a change that needs a restart", async () => {
    await saveAsEditor(seed, '[{"id": 1, "name": "Fern renamed"}, {"id": 3, "name": "Aloe"}]');
    expect(await eventually(async () => (await health()).reload?.ok === true)).toBe(true);
    await saveAsEditor(config, `${FAULTY_CONFIG}journalSize: 50\n`);
    expect(await eventually(async () => (await postPlant(server.url, plantText({ id: 6, name: 'Sage' }))).status === 503)).toBe(true);
    expect(server.faults.list()).toEqual([expect.objectContaining({ kind: 'status', status: 503, operation: 'createPlant' })]);
    expect(lines).toContainEqual(expect.stringMatching(/watch: changed in the config, taken only on restart: journalSize$/));
  });

  it('keeps the last good config when the config breaks, and takes the fixed one', async () => {
    await saveAsEditor(config, 'seed: seed.json\nfaults:\n  - {kind: status, status: 700}\n');
    expect(await eventually(async () => (await health()).reload?.ok === false)).toBe(true);
    expect((await health()).reload?.error).toMatch(/plantstore\.yaml: faults\[0\]\.status/);
    // The last good config's fault is still in force.
    expect(server.faults.list()).toHaveLength(1);
    await saveAsEditor(config, CONFIG);
    expect(await eventually(async () => (await health()).reload?.ok === true)).toBe(true);
    expect(server.faults.list()).toEqual([]);
    expect((await postPlant(server.url, plantText({ id: 7, name: 'Mint' }))).status).toBe(200);
  });
});

describe('serve --watch --admin-token: a refused config is explained to the admin only', () => {
  it("keeps the reason (which may quote a config value) out of the tokenless health, and gives it to the admin token's holder", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plantstore-watch-admin-'));
    const config = join(dir, 'plantstore.yaml');
    await writeFile(config, 'journalSize: 10\n');
    const argv = ['--config', config, '--watch', '--port', '0', '--admin-token', 'admin-7f3e'];
    const flags = readServeFlags(argv);
    const read = await readServeOptions(argv, flags);
    if (read === 'help') throw new Error('unexpected --help');
    const server = await startServer({ ...read.options, optionSources: watchedSources(argv, flags, read.files) });
    try {
      // A token written as a number: the refusal names its key, and never the token, not even to the admin.
      await saveAsEditor(config, 'tokens: [424242]\n');
      const health = async (headers: Record<string, string> = {}) => (await send(`${server.url}/__control/health`, { headers })).json as Health;
      expect(await eventually(async () => (await health()).reload?.ok === false)).toBe(true);
      expect((await health()).reload?.error).toBe('not shown without the admin token (the reason may quote a value of the config file)');
      expect((await health({ authorization: 'Bearer wrong' })).reload?.error).not.toContain('424242');
      const forAdmin = (await health({ authorization: 'Bearer admin-7f3e' })).reload?.error;
      expect(forAdmin).toMatch(/plantstore\.yaml: tokens\[0\] must be a string/);
      expect(forAdmin).not.toContain('424242');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
