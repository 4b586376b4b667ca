/** plantstore's programmatic API: the stand-in server, for test suites that start it themselves. */
export { startServer, DEFAULTS, type ServerOptions, type RunningServer } from './server/start-server.js';
export { loadDocument, bundledSpecPath, DocumentError, type LoadedDocument, type Operation } from './core/openapi/load-document.js';
export type {
  Item,
  ItemKey,
  ItemFields,
  ItemStore,
  ItemCreateResult,
  ItemSeedResult,
  ItemPage,
  ItemPageRequest,
  TenantItems,
  ResourceStores,
  CollectionKey,
} from './store/item-store.js';
export { collectionKey } from './store/item-store.js';
export { SHARED_TENANT, tenantOfToken, type TenantId } from './store/tenants.js';
export type { Resource, ResourceModel, Identifier } from './core/resources/model.js';
/** A plant of the `seed` option (the bundled Plant Store's plants, bigint ids). */
export type { Plant } from './store/plant-store.js';
export { ErrorCode, type ErrorCodeValue } from './core/errors.js';
export type { LogLevel } from './log/logger.js';
