import { operationName } from '../core/openapi/operation.js';
import { ANY_HOST } from '../http/host-check.js';
import { signInKinds, signInLines } from './sign-in-banner.js';
import { CONTROL_PREFIX, startServer, type RunningServer, type ServerOptions } from '../server/start-server.js';
import type { OptionSources } from '../server/options/server-options.js';
import { resolve } from 'node:path';
import { loadConfig, type ServeConfig } from '../server/options/config-file.js';
import { readServeFlags, resolveServeOptions, SERVE_OPTIONS } from '../server/options/resolve.js';
import { loadSeedData } from '../server/options/seed-file.js';
import type { JsonValue } from '../core/json/exact-json.js';
import { SERVE_HELP } from '../server/options/table.js';
import { parseStoreTarget } from '../store/redis/connection.js';
import { describeSecurity, securityOf } from '../core/openapi/security.js';
import { operationRoles } from '../core/resources/model.js';
import { roleOf } from '../handlers/bind-api.js';
import { printable } from '../log/logger.js';
import { resourceLines } from './resources-banner.js';
import { basePathLines, modeLines } from './modes-banner.js';
import { authLines } from './auth-banner.js';
import type { Fault } from '../faults/faults.js';
import { UsageError } from './usage-error.js';

export { SERVE_HELP };

/**
 * Turns `plantstore serve` arguments into server options; throws UsageError with the flag at fault.
 * Each option comes from its flag, else its environment variable, else the config file (`--config`,
 * read by the caller), else its default: see src/server/options/table.ts.
 */
export function parseServeArguments(argv: readonly string[], environment: NodeJS.ProcessEnv = process.env, config: ServeConfig = {}): ServerOptions | 'help' {
  const flags = readServeFlags(argv);
  if (flags.help === true) return 'help';
  return resolveServeOptions(flags, environment, config, refuse);
}

function refuse(message: string): never {
  throw new UsageError(message);
}

export async function runServe(argv: readonly string[]): Promise<number> {
  const flags = readServeFlags(argv);
  const read = await readServeOptions(argv, flags);
  if (read === 'help') {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const options: ServerOptions = read.options.watch ? { ...read.options, optionSources: watchedSources(argv, flags, read.files) } : read.options;
  const server = await startServer(options);
  if (options.logLevel !== 'silent') process.stdout.write(options.logFormat === 'json' ? jsonBanner(server, options) : textBanner(server, options));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
  return 0;
}

/** The options from the flags, environment, config file and seed file, with the files they were read from. */
export async function readServeOptions(
  argv: readonly string[],
  flags: ReturnType<typeof readServeFlags>,
): Promise<'help' | { options: ServerOptions; files: OptionSources['files'] }> {
  const config = typeof flags.config === 'string' ? await loadConfig(flags.config) : {};
  const parsed = parseServeArguments(argv, process.env, config);
  if (parsed === 'help') return 'help';
  const seedFile = flags[SERVE_OPTIONS.seed.flag];
  const seedData = typeof seedFile === 'string' ? await loadSeedData(seedFile) : { plants: [], items: {} };
  const options: ServerOptions = {
    ...parsed,
    ...(seedData.plants.length > 0 ? { seed: [...(parsed.seed ?? []), ...seedData.plants] } : {}),
    ...(Object.keys(seedData.items).length > 0 ? { seedItems: mergeItems(parsed.seedItems ?? {}, seedData.items) } : {}),
  };
  const files = [
    ...(typeof flags.config === 'string' ? [{ what: 'config', path: resolve(flags.config) }] : []),
    ...(config.seedFile !== undefined ? [{ what: "config's seed", path: config.seedFile }] : []),
    ...(typeof seedFile === 'string' ? [{ what: 'seed data', path: resolve(seedFile) }] : []),
  ];
  return { options, files };
}

/** --watch: the config and seed files, read again as at start (same flags and environment) when one changes. */
export function watchedSources(argv: readonly string[], flags: ReturnType<typeof readServeFlags>, files: OptionSources['files']): OptionSources {
  return {
    files,
    read: async () => {
      const again = await readServeOptions(argv, flags);
      if (again === 'help') throw new Error('the arguments now ask for --help');
      return again.options;
    },
  };
}

function textBanner(server: RunningServer, options: ServerOptions): string {
  // Paths, titles and operation names are user text: none may reach the terminal raw.
  return `${banner(server, options).map(printable).join('\n')}\n\n`;
}

/** With --log-format json the banner is one JSON line too, so every line of stdout parses. */
function jsonBanner(server: RunningServer, options: ServerOptions): string {
  const { document } = server;
  return `${JSON.stringify({ time: new Date().toISOString(), level: 'info', message: 'listening', url: server.url, document: { title: document.title, version: document.version }, banner: banner(server, options) })}\n`;
}

/** What a person needs at start: where, what, and how credentials are treated (never the tokens). */
function banner(server: RunningServer, options: ServerOptions): string[] {
  const { document } = server;
  const target = parseStoreTarget(options.store ?? 'memory');
  // The Redis URL as a banner may show it (no password); undefined for the in-process store.
  const redis = target.kind === 'redis' ? target.shown : undefined;
  const lines = [
    `plantstore serving ${document.title} ${document.version} from ${document.source}`,
    `listening on ${server.url}`,
    ...basePathLines(server.url, document.operations),
    'operations:',
  ];
  const roles = operationRoles(server.resources);
  const signInKind = signInKinds(server.resources);
  for (const operation of document.operations) {
    const store = redis !== undefined ? `kept in Redis` : options.dataDir === undefined ? 'in-memory store' : `kept in ${options.dataDir}`;
    const role = roleOf(operation, roles);
    const kind = signInKind.get(operation) ?? (role ? `stateful (${role.resource.name}: ${role.role}), ${store}` : 'mocked from the document');
    const auth = describeSecurity(securityOf(operation));
    lines.push(`  ${operation.method.toUpperCase().padEnd(6)} ${operation.path.padEnd(20)} ${operationName(operation).padEnd(16)} ${kind}, ${auth}`);
  }
  lines.push(...resourceLines(server.resources, document.operations));
  const signIn = signInLines(server.resources, server.tokenPolicy === 'configured' ? (options.tokens?.length ?? 0) : 0, options.tokenLifetime);
  lines.push(...signIn);
  const auth = authLines(document.operations, server.tokenPolicy === 'configured' ? (options.tokens?.length ?? 0) : 0, options.authStatus);
  lines.push(
    // A document that signs users in has said which tokens count (signInLines).
    ...(signIn.length > 0 ? auth.filter((line) => !line.startsWith('tokens:')) : auth),
    `cors: ${options.cors === false ? 'off' : 'on (any origin)'}`,
    `control API: ${server.url}${CONTROL_PREFIX} (${options.adminToken === undefined ? `open: no --admin-token; ${controlHosts(options.allowedHosts ?? [])}` : 'admin token required'}; described by spec/control-api.yaml)`,
    ...(options.adminToken === undefined && options.allowedHosts?.includes(ANY_HOST)
      ? [
          "warning: --allow-host '*': any web page the developer visits can reach the open control API through DNS rebinding; prefer naming the hosts, or set --admin-token",
        ]
      : []),
    storeLine(server, options, redis),
    seedLine(options),
    faultsLine(server.faults.list()),
    ...modeLines(options),
  );
  return lines;
}

/** Where the items of the document's resources are kept, by the resources' own names. */
/** Where the items are kept; `redis` is the store's URL as shown (its password hidden). */
function storeLine(server: RunningServer, { dataDir, isolateByToken }: ServerOptions, redis: string | undefined): string {
  const names = server.resources.resources.map((resource) => resource.name);
  const where =
    redis !== undefined
      ? `kept in Redis at ${redis}, with faults and journal, shared by every replica on it`
      : dataDir === undefined
        ? 'in memory (lost on exit)'
        : `kept in ${dataDir}`;
  const isolation = isolateByToken ? ', one store per bearer token (requests that send none share one store)' : '';
  return `stored items${names.length === 0 ? '' : ` of ${names.join(', ')}`}: ${where}${isolation}`;
}

/** How many items the seed holds, per resource: `seed: 2 items (plants 2)`. */
function seedLine({ seed = [], seedItems = {}, isolateByToken }: ServerOptions): string {
  const counts = Object.entries({ ...(seed.length > 0 ? { plants: seed } : {}), ...seedItems }).filter(([, items]) => items.length > 0);
  if (counts.length === 0) return 'seed: none';
  const total = counts.reduce((sum, [, items]) => sum + items.length, 0);
  const each = counts.map(([name, items]) => `${name} ${items.length}`).join(', ');
  return `seed: ${total} item${total === 1 ? '' : 's'} (${each})${isolateByToken ? ' (every new tenant starts with them)' : ''}`;
}

/** How many faults are in force and of which kinds, so nobody wonders why requests fail. */
function faultsLine(faults: readonly Fault[]): string {
  if (faults.length === 0) return 'faults: none';
  const described = faults.map((fault) => {
    const what = fault.kind === 'status' ? `status ${fault.status}` : fault.kind;
    return fault.operation === undefined ? what : `${what} on ${fault.operation}`;
  });
  return `faults: ${faults.length} in force (${described.join(', ')}); see ${CONTROL_PREFIX}/faults`;
}

function controlHosts(allowed: readonly string[]): string {
  if (allowed.includes(ANY_HOST)) return 'any Host';
  return `Host localhost, *.localhost, IP addresses${allowed.length > 0 ? `, ${allowed.join(', ')}` : ''}`;
}

/** The config's seed items with the seed file's added, resource by resource. */
function mergeItems(first: NonNullable<ServerOptions['seedItems']>, second: NonNullable<ServerOptions['seedItems']>): NonNullable<ServerOptions['seedItems']> {
  const merged: Record<string, readonly JsonValue[]> = { ...first };
  for (const [name, items] of Object.entries(second)) merged[name] = [...(merged[name] ?? []), ...items];
  return merged;
}
