/**
 * serve --store redis://…: what replicas on one Redis share (issue 22). The items of every tenant,
 * the faults and the request journal move into Redis under one namespace, named by the document
 * (a hash of its title, version and operations), so two documents can share one Redis; so do the
 * webhook deliveries' states and the tokens sign-ins issued (their digests). Everything else
 * (sites, handlers, the webhook sender) stays as it is.
 */
import { createHash } from 'node:crypto';
import { credentialNamesOf } from '../auth/credential-names.js';
import type { IssuedTokens } from '../auth/issued-tokens.js';
import { createSharedIssuedTokens } from '../auth/shared-issued-tokens.js';
import type { LoadedDocument } from '../core/openapi/load-document.js';
import { operationName } from '../core/openapi/operation.js';
import { createSharedFaults, type SharedFaults } from '../faults/shared-faults.js';
import { createSharedJournal, type SharedJournal } from '../journal/shared-journal.js';
import type { Logger } from '../log/logger.js';
import { connectRedis, parseStoreTarget, type RedisConnection } from '../store/redis/connection.js';
import { createRedisStores, type RedisStores } from '../store/redis/redis-stores.js';
import type { SeedItems, TenantId } from '../store/tenants.js';
import { createSharedDeliveries, type SharedDeliveries } from '../webhooks/shared-deliveries.js';
import { PlantstoreError } from '../core/errors.js';
import type { ServerOptions } from './options/server-options.js';
import { SERVE_DEFAULTS } from './options/table.js';

export interface SharedState {
  readonly stores: RedisStores;
  readonly faults: SharedFaults;
  readonly journal: SharedJournal;
  /** With --webhook: every replica's deliveries. */
  readonly webhooks: SharedDeliveries | undefined;
  /** The tokens sign-ins issued (read only where the document signs users in). */
  readonly issued: IssuedTokens;
  /** The refresh tokens they issued beside them (kept apart: a refresh token is never a bearer). */
  readonly refreshTokens: IssuedTokens;
}

/** Connects to the --store Redis, or undefined for the in-process store ('memory', the default). */
export async function connectStore(options: ServerOptions, logger: Logger): Promise<RedisConnection | undefined> {
  const target = parseStoreTarget(options.store ?? 'memory');
  if (target.kind === 'memory') return undefined;
  if (options.dataDir !== undefined)
    throw new PlantstoreError('usage', "--data-dir keeps one process's items on disk; with --store redis://… the items are kept in Redis: give one of them");
  const requestTimeoutMs = options.requestTimeoutMs ?? SERVE_DEFAULTS.requestTimeoutMs;
  return connectRedis(target, {
    // Well inside the request timeout, so a request meets its 503 before a client gives up on it.
    commandTimeoutMs: Math.max(200, Math.min(2000, Math.floor(requestTimeoutMs / 4))),
    onProblem: (message) => logger.warn(`store: ${message}`),
    onRecovered: () => logger.info(`store: the shared store at ${target.shown} answers again`),
  });
}

export interface SharedStateParts {
  readonly document: LoadedDocument;
  readonly logger: Logger;
  /** What a tenant starts with, the shared one included: applied once per store. */
  readonly seedFor: (tenant: TenantId) => SeedItems;
}

export async function openSharedState(redis: RedisConnection, options: ServerOptions, parts: SharedStateParts): Promise<SharedState> {
  const { document, logger } = parts;
  const namespace = `ps:${documentHash(document)}`;
  const stores = createRedisStores(redis, {
    namespace,
    seedFor: parts.seedFor,
    maxTenants: options.maxTenants ?? SERVE_DEFAULTS.maxTenants,
  });
  const faults = await createSharedFaults(redis, namespace, options.faults ?? [], document.operations.map(operationName));
  const journal = await createSharedJournal(redis, namespace, options.journalSize ?? SERVE_DEFAULTS.journalSize, {
    bytes: options.journalBytes ?? SERVE_DEFAULTS.journalBytes,
    credentials: credentialNamesOf(document.operations),
    onProblem: (message) => logger.warn(message),
  });
  const webhooks =
    options.webhook === undefined
      ? undefined
      : createSharedDeliveries(redis, namespace, {
          history: options.webhookHistory ?? SERVE_DEFAULTS.webhookHistory,
          onProblem: (message) => logger.warn(message),
        });
  return {
    stores,
    faults,
    journal,
    webhooks,
    issued: createSharedIssuedTokens(redis, namespace),
    refreshTokens: createSharedIssuedTokens(redis, `${namespace}:refresh`),
  };
}

/** Closes what openSharedState started (the connection itself is closed by its owner). */
export function closeSharedState(state: SharedState | undefined): void {
  state?.stores.close();
  state?.faults.close();
  state?.journal.close();
  state?.webhooks?.close();
}

/**
 * The document's namespace: its title, version and operations (method and path), hashed. Replicas
 * serving one document meet there; editing a description keeps the items, a new version or path does not.
 */
export function documentHash(document: LoadedDocument): string {
  const operations = document.operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort();
  return createHash('sha256')
    .update(JSON.stringify([document.title, document.version, operations]))
    .digest('hex')
    .slice(0, 12);
}
