/**
 * The composition: documents, stores, journal, faults, the two sites and the node:http server.
 * The one module that sees every layer; the pipeline below it (src/http) takes what it serves as
 * parameters and imports neither the handlers nor the control API.
 */
import { loadControlDocument } from '../control/control-document.js';
import { credentialNamesOf } from '../auth/credential-names.js';
import { bundledSpecPath, loadDocument, type LoadedDocument } from '../core/openapi/load-document.js';
import { operationName } from '../core/openapi/operation.js';
import { inferResources } from '../core/resources/infer.js';
import { operationRoles, type ResourceModel } from '../core/resources/model.js';
import { roleOf } from '../handlers/bind-api.js';
import { answersFromExamples } from '../handlers/example-answer.js';
import { createFaults, type Faults } from '../faults/faults.js';
import { close, createListener, listen } from '../http/listener.js';
import { createRequestHandler, type Sites } from '../http/pipeline.js';
import { createBodyBudget } from '../http/read-body.js';
import type { ServerOptions } from './options/server-options.js';
import { SERVE_DEFAULTS as DEFAULTS } from './options/table.js';
import { createJournal, type Journal } from '../journal/journal.js';
import { createLogger, type Logger } from '../log/logger.js';
import { preloadMocker } from '../core/prism/adapter.js';
import { durableBacking } from '../store/durable-stores.js';
import { openPlantLog, type PlantLog, type Recovery } from '../store/plant-log.js';
import type { ResourceStores } from '../store/item-store.js';
import { compileItemChecks } from './item-checks.js';
import { seedItemsOf } from './seed-items.js';
import { createResourceStores, memoryBacking, SHARED_TENANT, type SeedItems, type TenantId } from '../store/tenants.js';
import { apiSite, controlSite } from './sites.js';
import { documentWebhooks } from '../webhooks/document-webhooks.js';
import { journalRecordOf } from '../webhooks/journal-attempt.js';
import type { ProxyOptions } from '../proxy/bind-proxy.js';
import { describeReload, watchDocument, type DocumentWatcher } from './watch-document.js';
import { restartOnlyChanges, seedAgain } from './reload-options.js';
import { isDeepStrictEqual } from 'node:util';
import type { ControlContext } from '../control/context.js';
import { pointerAnswer } from './pointer.js';
import { createJournalStreams } from '../control/journal-events.js';
import { loadInspectorPage, withInspector } from '../inspector/page.js';

/** The defaults of the options, as declared in the serve option table. */
export { SERVE_DEFAULTS as DEFAULTS } from './options/table.js';
export type { ServerOptions } from './options/server-options.js';

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly port: number;
  readonly document: LoadedDocument;
  /** Every tenant's collections: the items of every resource. */
  readonly stores: ResourceStores;
  /** The resources kept in the stores: inferred from `document` (settled by the `resources` option), computed once at start. */
  readonly resources: ResourceModel;
  /** The last requests answered, with query helpers for tests. */
  readonly journal: Journal;
  /** Faults to inject, changeable while running. */
  readonly faults: Faults;
  /** What was read back from `dataDir` at start for the shared tenant, when persistence is on. */
  readonly recovery?: Recovery;
  /** Whether tokens are checked against a configured list. */
  readonly tokenPolicy: 'any-non-empty' | 'configured';
  close(): Promise<void>;
}

/** Where the control API lives; the API document's own paths never start with it. */
export const CONTROL_PREFIX = '/__control';
/** Where the inspector page lives (built beside the control API). */
export const INSPECTOR_PATH = '/__inspector';

/** Starts the stand-in and resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const document = await loadDocument(options.spec);
  // Before the data dir is opened: an override naming what the document lacks stops the start cleanly.
  const resources = options.resourceModel ?? inferResources(document, options.resources);
  const logger = createLogger(options.logLevel ?? 'silent', options.log, options.logFormat ?? 'text');
  const persistence =
    options.dataDir === undefined ? undefined : await openPlantLog(options.dataDir, { onProblem: (message) => logger.warn(`data: ${message}`) });
  try {
    return await serve(options, { document, resources }, logger, persistence);
  } catch (error) {
    // The data dir is locked while open: a server that failed to start must let go of it.
    await persistence?.close();
    throw error;
  }
}

async function serve(
  options: ServerOptions,
  { document, resources }: { document: LoadedDocument; resources: ResourceModel },
  logger: Logger,
  log: PlantLog | undefined,
): Promise<RunningServer> {
  // Checked before anything is stored, so a bad fault leaves a data dir as it was.
  const faults = createFaults(options.faults ?? [], document.operations.map(operationName));
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes;
  const bodyBudget = createBodyBudget(bodyBufferBytes(options, bodyLimitBytes));
  const checkItem = compileItemChecks();
  // Checked before anything is stored, so a bad seed leaves a data dir as it was.
  // A let: --watch takes a changed seed file, and new tenants start from it.
  let seed: SeedItems = seedItemsOf(resources, options.seed ?? [], options.seedItems ?? {}, checkItem);
  // With isolation every new tenant starts from the seed items, as the shared store does without it.
  const seedNew = (tenant: TenantId): SeedItems => (options.isolateByToken && tenant !== SHARED_TENANT ? seed : {});
  let recovery: Recovery | undefined;
  const onRecovery = (tenant: TenantId, path: string, recovered: Recovery) => {
    if (tenant === SHARED_TENANT) recovery = recovered;
    reportRecovery(path, recovered, logger, tenant === SHARED_TENANT ? 'info' : 'debug');
  };
  const stores = createResourceStores({
    backing: log ? durableBacking(log, seedNew, onRecovery) : memoryBacking(seedNew),
    maxTenants: options.maxTenants ?? DEFAULTS.maxTenants,
    onEvict: (tenant) =>
      log
        ? logger.debug(`tenant ${tenant} evicted from memory (--max-tenants); its items stay in the data dir`)
        : logger.warn(`tenant ${tenant} evicted (--max-tenants): without --data-dir its items are gone; it starts again from the seed`),
    onProblem: (message) => logger.warn(`data: ${message}`),
  });
  const shared = await stores.forTenant(SHARED_TENANT);
  for (const [collection, items] of Object.entries(seed)) await shared.collection(collection).seed(items);
  const journal = createJournal(options.journalSize ?? DEFAULTS.journalSize, {
    bytes: options.journalBytes ?? DEFAULTS.journalBytes,
    credentials: credentialNamesOf(document.operations),
  });
  const tokens = options.tokens ?? [];
  const isolateByToken = options.isolateByToken ?? false;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const startedAt = Date.now();
  const cors = options.cors ?? true;
  const journalStreams = createJournalStreams();
  // Each delivery attempt is journaled beside the requests (operation "webhook <name>").
  const webhooks =
    options.webhook === undefined
      ? undefined
      : documentWebhooks(document, resources, options.webhook, { onAttempt: (attempt) => journal.record(journalRecordOf(attempt)) });
  const siteParts = { cors, bodyLimitBytes, bodyBudget, logger };
  const controlDocument = await loadControlDocument();
  const places = { control: CONTROL_PREFIX, inspector: INSPECTOR_PATH };
  // What the document settles; --watch replaces it (and the sites built on it) when the file changes.
  const live = { document, resources };
  const buildApiSite = (served: LoadedDocument, model: ResourceModel) =>
    apiSite(served, {
      ...siteParts,
      stores,
      journal,
      faults,
      tokens,
      echoId: options.echoId ?? false,
      isolateByToken,
      authStatus: options.authStatus,
      model,
      onCreated: webhooks?.created,
      proxy: proxyOptionsOf(options, requestTimeoutMs),
      index: { path: '/', answer: pointerAnswer(served, places, 'api') },
    });
  let watcher: DocumentWatcher | undefined;
  const controlContext: ControlContext = {
    stores,
    checkItem,
    journal,
    faults,
    adminToken: options.adminToken,
    isolateByToken,
    startedAt,
    journalStreams,
    webhooks,
    // Read at each request, so the control API follows a reloaded document.
    get api() {
      return live.document;
    },
    get resources() {
      return live.resources;
    },
    reload: () => watcher?.status(),
    // What is watched, not where: health needs no admin token, so it names no path.
    watching: () => watcher && ['document', ...(options.optionSources?.files ?? []).map((source) => source.what)],
  };
  const control = controlSite(controlDocument, controlContext, {
    ...siteParts,
    allowedHosts: options.allowedHosts ?? [],
    index: { path: CONTROL_PREFIX, answer: pointerAnswer(controlDocument, places, 'control') },
  });
  const sites: { current: Sites } = { current: { api: buildApiSite(document, resources), control, controlPrefix: CONTROL_PREFIX } };
  const server = createListener(withInspector(loadInspectorPage(), createRequestHandler(sites, logger)), requestTimeoutMs, logger);
  const port = await listen(server, options.port ?? DEFAULTS.port, options.host ?? DEFAULTS.host);
  // Mocked operations whose answers the examples do not make need prism's mocker; load it now, after
  // listening, rather than on the first request. (Loading it for every document made requests that
  // arrived meanwhile wait seconds on a loaded machine; Prefer answers come from the examples.)
  const roles = operationRoles(resources);
  const generated = (operation: (typeof document.operations)[number]) => roleOf(operation, roles) === undefined && !answersFromExamples(operation);
  if (document.operations.some(generated)) setImmediate(() => void preloadMocker());
  const host = options.host ?? DEFAULTS.host;
  if (options.watch && typeof options.spec !== 'object') {
    const file = options.spec ?? bundledSpecPath();
    const sources = options.optionSources;
    // What the last good config said: a reload compares against it. Faults from the config carry these ids.
    let taken: ServerOptions = options;
    let configFaults = faults.list().map((fault) => fault.id);
    watcher = watchDocument(
      [file, ...(sources?.files ?? []).map((source) => source.path)],
      async () => {
        // Everything is read and checked before anything is swapped: a broken file changes nothing.
        const given = sources ? await sources.read() : options;
        const next = await loadDocument(file);
        const model = given.resourceModel ?? inferResources(next, given.resources);
        const nextSeed = seedItemsOf(model, given.seed ?? [], given.seedItems ?? {}, checkItem);
        const faultsChanged = !isDeepStrictEqual(given.faults ?? [], taken.faults ?? []);
        if (faultsChanged) createFaults(given.faults ?? [], next.operations.map(operationName));
        const api = buildApiSite(next, model);
        const before = live.resources;
        // No await between these: a request sees the old document and sites or the new ones, never a mix.
        Object.assign(live, { document: next, resources: model });
        sites.current = { ...sites.current, api };
        const seedBefore = seed;
        seed = nextSeed;
        if (faultsChanged) {
          for (const id of configFaults) faults.remove(id);
          // Checked above against the new operations; the faults in force know those of the start, so one may still be refused.
          configFaults = (given.faults ?? []).flatMap((spec) => {
            try {
              return [faults.add(spec).id];
            } catch (error) {
              logger.warn(`watch: a fault of the config was not put in force: ${error instanceof Error ? error.message : String(error)}`);
              return [];
            }
          });
        }
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
      },
      logger,
    );
  }

  return {
    get document() {
      return live.document;
    },
    get resources() {
      return live.resources;
    },
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stores,
    journal,
    faults,
    ...(recovery ? { recovery } : {}),
    tokenPolicy: tokens.length > 0 ? 'configured' : 'any-non-empty',
    close: async () => {
      // Open journal streams never end by themselves; end them so close() need not wait.
      journalStreams.closeAll();
      await webhooks?.sender.close();
      await watcher?.close();
      await close(server);
      await log?.close();
    },
  };
}

/** --proxy URL: an http(s) base URL, checked at start; the upstream gets as long to answer as a client to send. */
function proxyOptionsOf(options: ServerOptions, timeoutMs: number): ProxyOptions | undefined {
  if (options.proxy === undefined) {
    if (options.proxyStrict === true) throw new Error('--proxy-strict needs --proxy URL');
    return undefined;
  }
  let upstream: URL;
  try {
    upstream = new URL(options.proxy);
  } catch {
    throw new Error(`--proxy ${options.proxy} is not a URL; give the real implementation's base URL, e.g. http://localhost:8080`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--proxy ${options.proxy}: only http and https URLs can be proxied`);
  return { upstream, strict: options.proxyStrict ?? false, timeoutMs };
}

function bodyBufferBytes(options: ServerOptions, bodyLimitBytes: number): number {
  const bytes = options.bodyBufferBytes ?? Math.max(DEFAULTS.bodyBufferBytes, bodyLimitBytes);
  // Below the body limit, a body the limit allows could never be received.
  if (bytes < bodyLimitBytes) throw new Error(`bodyBufferBytes (${bytes}) must be at least bodyLimitBytes (${bodyLimitBytes})`);
  return bytes;
}

function reportRecovery(path: string, recovery: Recovery, logger: Logger, level: 'info' | 'debug'): void {
  logger[level](`data: ${recovery.items} items recovered from ${path} (${recovery.collections} collection(s), ${recovery.records} records)`);
  for (const skipped of recovery.skipped) logger.warn(`data: skipped the record at byte ${skipped.offset} of ${path}: ${skipped.reason}`);
}
