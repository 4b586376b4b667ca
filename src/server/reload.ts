/**
 * `serve --watch`: when the document (or the config or seed file) changes, read and check
 * everything again, then swap the new document, resource model and API site in at once. The stores
 * are kept; a broken file changes nothing (the watcher reports it and the last good one stays).
 */
import { isDeepStrictEqual } from 'node:util';
import { loadDocument, type LoadedDocument } from '../core/openapi/load-document.js';
import { operationName } from '../core/openapi/operation.js';
import { modelToServe } from '../core/resources/infer.js';
import type { ResourceModel } from '../core/resources/model.js';
import { createFaults, type Faults } from '../faults/faults.js';
import type { CompiledSite } from '../http/site.js';
import type { Sites } from '../http/pipeline.js';
import type { Logger } from '../log/logger.js';
import type { ResourceStores } from '../store/item-store.js';
import { SHARED_TENANT, type SeedItems } from '../store/tenants.js';
import type { ItemCheck } from './item-checks.js';
import type { ServerOptions } from './options/server-options.js';
import { restartOnlyChanges, seedAgain } from './reload-options.js';
import { seedItemsOf } from './seed-items.js';
import { describeReload, watchDocument, type DocumentWatcher } from './watch-document.js';

/** What a reload reads and what it swaps: the composition's live parts. */
export interface Reloadable {
  /** The document file, watched with the option sources' files. */
  readonly file: string;
  /** The options the server started with; a reload reads them again from `optionSources` when given. */
  readonly options: ServerOptions;
  /** What the document settles, read at each request; replaced whole. */
  readonly live: { document: LoadedDocument; resources: ResourceModel };
  /** The sites the request handler reads at each request; the API site is replaced. */
  readonly sites: { current: Sites };
  /** The seed new tenants start from; replaced by a changed seed. */
  readonly seed: { current: SeedItems };
  readonly stores: ResourceStores;
  readonly faults: Faults;
  readonly checkItem: ItemCheck;
  readonly logger: Logger;
  /** The API site for a document and its model (the same parts as at start). */
  buildApiSite(document: LoadedDocument, model: ResourceModel): CompiledSite;
}

export function watchAndReload(target: Reloadable, debounceMs?: number): DocumentWatcher {
  const { file, options, live, sites, seed, stores, faults, checkItem, logger } = target;
  const sources = options.optionSources;
  // What the last good config said: a reload compares against it. Faults from the config carry these ids.
  let taken: ServerOptions = options;
  let configFaults = faults.list().map((fault) => fault.id);
  const reload = async (): Promise<void> => {
    // Everything is read and checked before anything is swapped: a broken file changes nothing.
    const given = sources ? await sources.read() : options;
    const next = await loadDocument(file);
    const model = modelToServe(next, given);
    const nextSeed = seedItemsOf(model, given.seed ?? [], given.seedItems ?? {}, checkItem);
    const faultsChanged = !isDeepStrictEqual(given.faults ?? [], taken.faults ?? []);
    if (faultsChanged) createFaults(given.faults ?? [], next.operations.map(operationName));
    const api = target.buildApiSite(next, model);
    const before = live.resources;
    // No await between these: a request sees the old document and sites or the new ones, never a mix.
    Object.assign(live, { document: next, resources: model });
    sites.current = { ...sites.current, api };
    const seedBefore = seed.current;
    seed.current = nextSeed;
    if (faultsChanged) configFaults = replaceConfigFaults(faults, configFaults, given, logger);
    const restart = restartOnlyChanges(taken, given);
    taken = given;
    const shared = await stores.forTenant(SHARED_TENANT);
    // The new document is in force already: a store that cannot take the seed is a warning, not a refused reload.
    const seeded = await seedAgain(shared, seedBefore, nextSeed).catch(
      (error: unknown) => `seed: not stored (${error instanceof Error ? error.message : String(error)})`,
    );
    logger.info(`watch: ${await describeReload(file, before, model, shared)}; ${seeded}`);
    if (faultsChanged) logger.info(`watch: the config's faults replaced: ${configFaults.length} from the config now in force`);
    if (restart.length > 0) logger.warn(`watch: changed in the config, taken only on restart: ${restart.join(', ')}`);
  };
  return watchDocument([file, ...(sources?.files ?? []).map((source) => source.path)], reload, logger, debounceMs);
}

/** The faults the config put in force replaced by its new list (faults added through the control API stay); their ids. */
function replaceConfigFaults(faults: Faults, configFaults: readonly string[], given: ServerOptions, logger: Logger): string[] {
  for (const id of configFaults) faults.remove(id);
  // Checked against the new operations already; the faults in force know those of the start, so one may still be refused.
  return (given.faults ?? []).flatMap((spec) => {
    try {
      return [faults.add(spec).id];
    } catch (error) {
      logger.warn(`watch: a fault of the config was not put in force: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  });
}
