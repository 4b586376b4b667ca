/**
 * Issue 17, item 7, each over a real `plantstore serve` process: a failing data dir's 503 keeps the
 * server's paths in its log, "1e3" is refused as no identifier as "007" and "-0" are, --watch sees an
 * edit behind a symlinked document, and a nested create under a parent that does not exist is refused.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnServe, type ServeProcess } from '../persistence/cli-server.js';

const DOCUMENTS = fileURLToPath(new URL('../fixtures/documents/', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };

const servers: ServeProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function serve(args: readonly string[]): Promise<ServeProcess> {
  const server = await spawnServe(args, 20_000);
  servers.push(server);
  return server;
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-minor-'));
  dirs.push(dir);
  return dir;
}

describe('issue 17, item 7', { timeout: 60_000 }, () => {
  it('a data dir that fails answers 503 without the server path; the log has it', async () => {
    const dataDir = join(await scratch(), 'data');
    const server = await serve(['--spec', join(DOCUMENTS, 'pets-crud.yaml'), '--isolate-by-token', '--data-dir', dataDir]);
    // The disk "fails": the data dir is gone and a file is in its place, so a new tenant's log cannot be opened.
    await rm(dataDir, { recursive: true, force: true });
    await writeFile(dataDir, 'not a folder');
    const answer = await fetch(`${server.url}/pets`, { method: 'POST', headers: { ...JSON_TYPE, authorization: 'Bearer new-tenant' }, body: '{"name":"Rex"}' });
    const text = await answer.text();
    expect(answer.status).toBe(503);
    expect(text).toMatch(/the data dir failed \(ENOTDIR\); the server's log has the cause/);
    expect(text).not.toContain(dataDir);
    expect(text).not.toContain(tmpdir());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.output()).toContain(`${dataDir}/tenants/`);
  });

  it('an id spelled as "1e3" is refused as no identifier, as "007" and "-0" are', async () => {
    const server = await serve(['--spec', join(DOCUMENTS, 'pets-crud.yaml')]);
    for (const id of ['007', '-0', '1e3', '1E3', '7.0']) {
      const answer = await fetch(`${server.url}/pets/${id}`);
      expect(answer.status, id).toBe(400);
      expect(await answer.text(), id).toMatch(/is not an identifier of a pet/);
    }
    expect((await fetch(`${server.url}/pets/1000`)).status).toBe(404);
  });

  it('--watch reloads when the file behind a symlinked document is edited', async () => {
    const dir = await scratch();
    const target = join(dir, 'real', 'pets.yaml');
    await mkdir(join(dir, 'real'));
    const original = await readFile(join(DOCUMENTS, 'pets-crud.yaml'), 'utf8');
    await writeFile(target, original);
    const link = join(dir, 'linked', 'pets.yaml');
    await mkdir(join(dir, 'linked'));
    await symlink(target, link);
    const server = await serve(['--spec', link, '--watch']);
    const title = async (): Promise<string> =>
      ((await (await fetch(`${server.url}/__control/health`)).json()) as { document: { title: string } }).document.title;
    const before = await title();
    await writeFile(target, original.replace(/^(\s*title:\s*).*$/m, '$1Edited behind the link'));
    const deadline = Date.now() + 10_000;
    let now = before;
    while (Date.now() < deadline && (now = await title()) === before) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(now).toBe('Edited behind the link');
  });

  it('a nested create that declares 404, under a parent that does not exist, is refused with 404 and stores nothing', async () => {
    // owners-pets.yaml with the pets' create declaring 404 (the original declares none: there it is still stored).
    const original = await readFile(join(DOCUMENTS, 'owners-pets.yaml'), 'utf8');
    const declared = original.replace(
      "'201':\n          description: The pet was created.",
      "'404': { description: No such owner. }\n        '201':\n          description: The pet was created.",
    );
    expect(declared).not.toBe(original);
    const spec = join(await scratch(), 'owners-pets-404.yaml');
    await writeFile(spec, declared);
    const server = await serve(['--spec', spec]);
    const orphan = await fetch(`${server.url}/owners/999/pets`, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex","species":"dog"}' });
    expect(orphan.status).toBe(404);
    expect(await orphan.text()).toMatch(/no owner with id 999/);
    const listed = (await (await fetch(`${server.url}/owners/999/pets`)).json()) as { pets: unknown[] };
    expect(listed.pets).toEqual([]);

    const owner = (await (await fetch(`${server.url}/owners`, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Ann"}' })).json()) as { id: number };
    const pet = await fetch(`${server.url}/owners/${owner.id}/pets`, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex","species":"dog"}' });
    expect(pet.status).toBe(201);
  });
});
