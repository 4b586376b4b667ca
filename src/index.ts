/** plantstore's programmatic API: the stand-in server, for test suites that start it themselves. */
export { startServer, DEFAULTS, type ServerOptions, type RunningServer } from './server/start-server.js';
export { loadDocument, bundledSpecPath, DocumentError, type LoadedDocument, type Operation } from './core/openapi/load-document.js';
export type { Plant, PlantStore, CreateResult, SeedResult, PageRequest, PlantPage } from './store/plant-store.js';
export type { PlantStores, TenantId } from './store/tenants.js';
export { ErrorCode, type ErrorCodeValue } from './core/errors.js';
export type { LogLevel } from './log/logger.js';
