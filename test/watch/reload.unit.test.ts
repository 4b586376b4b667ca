/**
 * The --watch reload on its own (src/server/reload.ts), without a listener: a changed file swaps
 * the document, model and API site together and keeps the stored items; a broken one swaps
 * nothing; a changed config replaces the faults it put in force and leaves the control API's.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledSpecPath, loadDocument, type LoadedDocument } from '../../src/core/openapi/load-document.js';
import { operationName } from '../../src/core/openapi/operation.js';
import { inferResources } from '../../src/core/resources/infer.js';
import type { ResourceModel } from '../../src/core/resources/model.js';
import { createFaults, type FaultSpec } from '../../src/faults/faults.js';
import type { CompiledSite } from '../../src/http/site.js';
import { createLogger } from '../../src/log/logger.js';
import { compileItemChecks } from '../../src/server/item-checks.js';
import type { ServerOptions } from '../../src/server/options/server-options.js';
import { watchAndReload, type Reloadable } from '../../src/server/reload.js';
import type { DocumentWatcher } from '../../src/server/watch-document.js';
import { PLANTS, plantItem } from '../../src/store/plant-store.js';
import { createResourceStores, SHARED_TENANT } from '../../src/store/tenants.js';

/** Polls until `probe` holds, for at most 8 s (a document's load takes a moment on a loaded machine). */
async function eventually(probe: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 8_000;
  while (!probe()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 25));
  }
  return true;
}

async function saveAsEditor(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

/** A stand-in for the API site: which document it was built for. */
const siteFor = (document: LoadedDocument): CompiledSite => ({ builtFor: document.title }) as unknown as CompiledSite;

describe('watchAndReload', () => {
  let dir: string;
  let file: string;
  let original: string;
  let watcher: DocumentWatcher | undefined;
  const lines: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plantstore-reload-'));
    file = join(dir, 'plant-store.yaml');
    original = await readFile(bundledSpecPath(), 'utf8');
    await writeFile(file, original);
    lines.length = 0;
  });
  afterEach(async () => {
    await watcher?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function reloadable(options: ServerOptions): Promise<Reloadable> {
    const document = await loadDocument(file);
    const resources: ResourceModel = inferResources(document);
    const stores = createResourceStores();
    await (await stores.forTenant(SHARED_TENANT)).collection(PLANTS).create(plantItem({ id: 7n, name: 'Fern' }));
    return {
      file,
      options,
      live: { document, resources },
      sites: { current: { api: siteFor(document), controlPrefix: '/__control' } },
      seed: { current: {} },
      stores,
      faults: createFaults(options.faults ?? [], document.operations.map(operationName)),
      checkItem: compileItemChecks(),
      logger: createLogger('info', (line) => lines.push(line)),
      buildApiSite: siteFor,
    };
  }

  it('swaps the document, model and API site at once and keeps the stored items; a broken file swaps nothing', async () => {
    const target = await reloadable({ spec: file, watch: true });
    const { live, sites } = target;
    watcher = watchAndReload(target, 20);

    await saveAsEditor(file, original.replace(/^ {2}title: Plant Store$/m, '  title: Plant Store Edited'));
    expect(await eventually(() => live.document.title === 'Plant Store Edited')).toBe(true);
    expect(sites.current).toEqual({ api: { builtFor: 'Plant Store Edited' }, controlPrefix: '/__control' });
    expect(live.resources.resources.map((resource) => resource.name)).toEqual(['plants']);
    expect(watcher.status()).toMatchObject({ ok: true });
    expect(await (await target.stores.forTenant(SHARED_TENANT)).collection(PLANTS).get(7n)).toMatchObject({ fields: { name: 'Fern' } });
    expect(lines.some((line) => /watch: reloaded .*: kept plants \(1 item/.test(line))).toBe(true);

    const good = { document: live.document, site: sites.current };
    await saveAsEditor(file, 'openapi: 3.1.0\ninfo: [not, an, object\n');
    expect(await eventually(() => watcher?.status()?.ok === false)).toBe(true);
    expect(live.document).toBe(good.document);
    expect(sites.current).toBe(good.site);
  });

  it('replaces the faults the config put in force when the config changes, and keeps those added since', async () => {
    const config = join(dir, 'plantstore.yaml');
    await writeFile(config, 'first');
    let configFaults: FaultSpec[] = [{ kind: 'latency', latencyMs: 1 }];
    const options: ServerOptions = {
      spec: file,
      watch: true,
      faults: configFaults,
      optionSources: { files: [{ what: 'config', path: config }], read: async () => ({ spec: file, watch: true, faults: configFaults }) },
    };
    const target = await reloadable(options);
    watcher = watchAndReload(target, 20);
    // Added through the control API while serving: not the config's to replace.
    const added = target.faults.add({ kind: 'status', status: 503 });

    configFaults = [{ kind: 'empty', times: 1 }];
    await saveAsEditor(config, 'second');
    expect(await eventually(() => target.faults.list().some((fault) => fault.kind === 'empty'))).toBe(true);
    expect(
      target.faults
        .list()
        .map((fault) => fault.kind)
        .sort(),
    ).toEqual(['empty', 'status']);
    expect(target.faults.list().some((fault) => fault.id === added.id)).toBe(true);
  });
});
