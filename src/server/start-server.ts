/**
 * The composition: documents, stores, journal, faults, the two sites and the node:http server.
 * The one module that sees every layer; the pipeline below it (src/http) takes what it serves as
 * parameters and imports neither the handlers nor the control API.
 */
import { createIssuedTokens } from '../auth/issued-tokens.js';
import { PlantstoreError } from '../core/errors.js';
import { credentialNamesOf } from '../auth/credential-names.js';
import { bundledSpecPath, loadDocument, type LoadedDocument } from '../core/openapi/load-document.js';
import { operationName } from '../core/openapi/operation.js';
import { modelToServe } from '../core/resources/infer.js';
import { operationRoles, type ResourceModel } from '../core/resources/model.js';
import { roleOf } from '../handlers/bind-api.js';
import { answersFromExamples } from '../handlers/example-answer.js';
import { createFaults, type Faults } from '../faults/faults.js';
import { close, createListener, listen } from '../http/listener.js';
import { createRequestHandler, type Sites } from '../http/pipeline.js';
import { createBodyBudget } from '../http/read-body.js';
import type { ServerOptions } from './options/server-options.js';
import { createJournal, type Journal } from '../journal/journal.js';
import { createLogger, type Logger } from '../log/logger.js';
import { preloadErrorWording, preloadMocker } from '../core/prism/adapter.js';
import { inLulls, lullsOf } from './quiet.js';
import { durableBacking } from '../store/durable-stores.js';
import { openPlantLog, type PlantLog, type Recovery } from '../store/plant-log.js';
import type { ResourceStores } from '../store/item-store.js';
import { compileItemChecks } from './item-checks.js';
import { seedItemsOf } from './seed-items.js';
import { createResourceStores, memoryBacking, SHARED_TENANT, type SeedItems, type TenantId } from '../store/tenants.js';
import { apiSite } from './sites.js';
import type { SharedDeliveries } from '../webhooks/shared-deliveries.js';
import type { ProxyOptions } from '../proxy/bind-proxy.js';
import type { DocumentWatcher } from './watch-document.js';
import { settleOptions, type Settled } from './defaults.js';
import type { ControlContext } from '../control/context.js';
import { pointerAnswer } from './pointer.js';
import { createJournalStreams, MAX_JOURNAL_STREAMS } from '../control/journal-events.js';
import { throttledCount } from '../log/throttle.js';
import { lazyInspectorPage, withInspector } from '../inspector/page.js';
import type { RedisConnection } from '../store/redis/connection.js';
import type { SharedState } from './shared-state.js';
import { parseStoreTarget } from '../store/redis/connection.js';

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
/** How long no request must be in flight before work that can wait (validators, the mocker) takes its next step. */
const LULL_QUIET_MS = 200;

/** Starts the stand-in and resolves once it listens. */
export async function startServer(given: ServerOptions = {}): Promise<RunningServer> {
  const options = settleOptions(given);
  const document = await loadDocument(options.spec);
  // Before the data dir is opened: an override naming what the document lacks stops the start cleanly.
  const resources = modelToServe(document, options);
  const logger = createLogger(options.logLevel ?? 'silent', options.log, options.logFormat ?? 'text');
  // Redis, the proxy, webhooks and --watch are loaded only when asked for: each is modules a start need not read.
  const sharedState = parseStoreTarget(options.store ?? 'memory').kind === 'redis' ? await import('./shared-state.js') : undefined;
  const redis = await sharedState?.connectStore(options, logger);
  const persistence =
    options.dataDir === undefined ? undefined : await openPlantLog(options.dataDir, { onProblem: (message) => logger.warn(`data: ${message}`) });
  try {
    return await compose(options, { document, resources }, logger, persistence, redis && sharedState && { connection: redis, shared: sharedState });
  } catch (error) {
    // The data dir is locked while open: a server that failed to start must let go of it.
    await persistence?.close();
    await redis?.close();
    throw error;
  }
}

/** The composition root: stores, journal, faults, webhooks, the two sites and the listener, wired once. */
async function compose(
  options: Settled,
  { document, resources }: { document: LoadedDocument; resources: ResourceModel },
  logger: Logger,
  log: PlantLog | undefined,
  store?: { connection: RedisConnection; shared: typeof import('./shared-state.js') },
): Promise<RunningServer> {
  const redis = store?.connection;
  // Checked before anything is stored, so a bad fault leaves a data dir as it was.
  const localFaults = createFaults(options.faults ?? [], document.operations.map(operationName));
  const checkItem = compileItemChecks();
  // Checked before anything is stored, so a bad seed leaves a data dir as it was. --watch replaces
  // it with a changed seed file's, and new tenants start from the current one.
  const seed = { current: seedItemsOf(resources, options.seed ?? [], options.seedItems ?? {}, checkItem) };
  // With isolation every new tenant starts from the seed items, as the shared store does without it.
  const seedNew = (tenant: TenantId): SeedItems => (options.isolateByToken && tenant !== SHARED_TENANT ? seed.current : {});
  let recovery: Recovery | undefined;
  const onRecovery = (tenant: TenantId, path: string, recovered: Recovery) => {
    if (tenant === SHARED_TENANT) recovery = recovered;
    reportRecovery(path, recovered, logger, tenant === SHARED_TENANT ? 'info' : 'debug');
  };
  // --store redis://…: items, faults, journal and webhook deliveries in Redis, shared by every replica on it; seeds go in once per store.
  const replicated: SharedState | undefined =
    store &&
    (await store.shared.openSharedState(store.connection, options, {
      document,
      logger,
      seedFor: (tenant) => (tenant === SHARED_TENANT ? seed.current : seedNew(tenant)),
    }));
  const faults = replicated?.faults ?? localFaults;
  const stores =
    replicated?.stores ??
    createResourceStores({
      backing: log ? durableBacking(log, seedNew, onRecovery) : memoryBacking(seedNew),
      maxTenants: options.maxTenants,
      onEvict: (tenant) =>
        log
          ? logger.debug(`tenant ${tenant} evicted from memory (--max-tenants); its items stay in the data dir`)
          : logger.warn(`tenant ${tenant} evicted (--max-tenants): without --data-dir its items are gone; it starts again from the seed`),
      onProblem: (message) => logger.warn(`data: ${message}`),
    });
  const shared = await stores.forTenant(SHARED_TENANT);
  if (!replicated) for (const [collection, items] of Object.entries(seed.current)) await shared.collection(collection).seed(items);
  const journal =
    replicated?.journal ?? createJournal(options.journalSize, { bytes: options.journalBytes, credentials: credentialNamesOf(document.operations) });
  const startedAt = Date.now();
  const journalStreams = createJournalStreams(MAX_JOURNAL_STREAMS, { queueBytes: options.journalStreamBytes, logger });
  const webhooks =
    options.webhook === undefined ? undefined : await deliverWebhooks(document, resources, options.webhook, options, journal, logger, replicated?.webhooks);
  const siteParts = { cors: options.cors, bodyLimitBytes: options.bodyLimitBytes, bodyBudget: createBodyBudget(options.bodyBufferBytes), logger };
  const places = { control: CONTROL_PREFIX, inspector: INSPECTOR_PATH };
  // What the document settles; --watch replaces it (and the sites built on it) when the file changes.
  const live = { document, resources };
  const proxyOptions = proxyOptionsOf(options, options.requestTimeoutMs);
  const proxy = proxyOptions && {
    options: proxyOptions,
    bind: (await import('../proxy/bind-proxy.js')).proxyBinder(proxyOptions, { isolateByToken: options.isolateByToken }),
  };
  // One set of issued tokens for the server's life: a reloaded document keeps its users signed in.
  // With --store redis://… they are kept there, so every replica honours them.
  const issued = replicated?.issued ?? createIssuedTokens();
  const refreshTokens = replicated?.refreshTokens ?? createIssuedTokens();
  const buildApiSite = (served: LoadedDocument, model: ResourceModel) =>
    apiSite(served, {
      ...siteParts,
      stores,
      journal,
      faults,
      tokens: options.tokens,
      echoId: options.echoId,
      isolateByToken: options.isolateByToken,
      tokenLifetime: options.tokenLifetime,
      authStatus: options.authStatus,
      model,
      onCreated: webhooks?.created,
      proxy,
      issued,
      refreshTokens,
      index: { path: '/', answer: pointerAnswer(served, places, 'api') },
    });
  let watcher: DocumentWatcher | undefined;
  const controlContext: ControlContext = {
    stores,
    checkItem,
    journal,
    faults,
    adminToken: options.adminToken,
    isolateByToken: options.isolateByToken,
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
  // Built at its first request: its document and modules are a tenth of a start's CPU (docs/performance.md).
  const control = once(async () => {
    const [{ loadControlDocument }, { controlSite }] = await Promise.all([import('../control/control-document.js'), import('./control-site.js')]);
    const controlDocument = await loadControlDocument();
    return controlSite(controlDocument, controlContext, {
      ...siteParts,
      allowedHosts: options.allowedHosts,
      index: { path: CONTROL_PREFIX, answer: pointerAnswer(controlDocument, places, 'control') },
    });
  });
  const sites: { current: Sites } = { current: { api: buildApiSite(document, resources), control, controlPrefix: CONTROL_PREFIX } };
  const server = createListener(withInspector(lazyInspectorPage(), createRequestHandler(sites, logger)), options.requestTimeoutMs, logger);
  const port = await listen(server, options.port, options.host);
  // Mocked operations whose answers the examples do not make need prism's mocker; load it now, after
  // listening, rather than on the first request. (Loading it for every document made requests that
  // arrived meanwhile wait seconds on a loaded machine; Prefer answers come from the examples.)
  const roles = operationRoles(resources);
  const generated = (operation: (typeof document.operations)[number]) => roleOf(operation, roles) === undefined && !answersFromExamples(operation);
  // In the server's lulls, what first requests would wait on: each operation's validator (Ajv code and
  // prism's parameter readers), prism's error wording for the first refusal (together 0.25 s of the
  // stand-in's CPU in a verify run's first second), then the mocker's parts (a tenth of a cold start's
  // first answer). Not for a closed or reloaded site.
  const api = sites.current.api;
  const lulls = lullsOf(server, LULL_QUIET_MS);
  setImmediate(() => {
    const prepared = inLulls(lulls.idle, [...api.prepare, preloadErrorWording], () => server.listening && sites.current.api === api);
    void prepared.then(() => (document.operations.some(generated) ? preloadMocker(lulls.idle) : undefined)).finally(lulls.stop);
  });
  // A document given as an object has no file to watch.
  if (options.watch && typeof options.spec !== 'object') {
    const file = options.spec ?? bundledSpecPath();
    const { watchAndReload } = await import('./reload.js');
    watcher = watchAndReload({ file, options, live, sites, seed, stores, faults, checkItem, logger, buildApiSite });
  }

  return {
    get document() {
      return live.document;
    },
    get resources() {
      return live.resources;
    },
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    stores,
    journal,
    faults,
    ...(recovery ? { recovery } : {}),
    tokenPolicy: options.tokens.length > 0 ? 'configured' : 'any-non-empty',
    close: async () => {
      // Open journal streams never end by themselves; end them so close() need not wait.
      journalStreams.closeAll();
      await webhooks?.sender.close();
      await watcher?.close();
      await close(server);
      await log?.close();
      store?.shared.closeSharedState(replicated);
      await redis?.close();
    },
  };
}

/** `make` called once, at the first call; its promise is shared, a failure included. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** The document's webhooks delivered to `url`; each attempt journaled beside the requests (operation "webhook <name>"), drops warned of at most every 10 s. */
async function deliverWebhooks(
  document: LoadedDocument,
  resources: ResourceModel,
  url: string,
  options: Settled,
  journal: Journal,
  logger: Logger,
  shared: SharedDeliveries | undefined,
) {
  const [{ documentWebhooks }, { journalRecordOf }] = await Promise.all([import('../webhooks/document-webhooks.js'), import('../webhooks/journal-attempt.js')]);
  const maxPending = options.webhookMaxPending;
  const drops = throttledCount(
    (count) =>
      logger.warn(
        `webhooks: ${count} deliver${count === 1 ? 'y' : 'ies'} dropped: ${maxPending} were already waiting (--webhook-max-pending); the receiver is slow or not answering`,
      ),
    10_000,
  );
  const webhooks = documentWebhooks(document, resources, url, {
    onAttempt: (attempt) => journal.record(journalRecordOf(attempt)),
    onDropped: () => drops.add(),
    ...(shared ? { onChange: shared.changed } : {}),
    maxPending,
    history: options.webhookHistory,
  });
  return { ...webhooks, shared };
}

/** --proxy URL: an http(s) base URL, checked at start; the upstream gets as long to answer as a client to send. */
function proxyOptionsOf(options: Settled, timeoutMs: number): ProxyOptions | undefined {
  if (options.proxy === undefined) {
    if (options.proxyStrict === true) throw new PlantstoreError('setup', '--proxy-strict needs --proxy URL');
    return undefined;
  }
  let upstream: URL;
  try {
    upstream = new URL(options.proxy);
  } catch {
    throw new PlantstoreError('setup', `--proxy ${options.proxy} is not a URL; give the real implementation's base URL, e.g. http://localhost:8080`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new PlantstoreError('setup', `--proxy ${options.proxy}: only http and https URLs can be proxied`);
  return { upstream, strict: options.proxyStrict ?? false, timeoutMs, bodyLimitBytes: options.proxyBodyLimit };
}

function reportRecovery(path: string, recovery: Recovery, logger: Logger, level: 'info' | 'debug'): void {
  logger[level](`data: ${recovery.items} items recovered from ${path} (${recovery.collections} collection(s), ${recovery.records} records)`);
  for (const skipped of recovery.skipped) logger.warn(`data: skipped the record at byte ${skipped.offset} of ${path}: ${skipped.reason}`);
}
