import { declaredFailureStatus, operationName } from '../core/openapi/operation.js';
import { ANY_HOST } from '../http/host-check.js';
import { CONTROL_PREFIX, startServer, type RunningServer, type ServerOptions } from '../server/start-server.js';
import { loadConfig, type ServeConfig } from '../server/options/config-file.js';
import { readServeFlags, resolveServeOptions, SERVE_OPTIONS } from '../server/options/resolve.js';
import { loadSeedData } from '../server/options/seed-file.js';
import { SERVE_HELP } from '../server/options/table.js';
import { describeSecurity, securityOf } from '../core/openapi/security.js';
import { STATEFUL_OPERATION } from '../handlers/bind-api.js';
import { printable } from '../log/logger.js';
import { resourceLines } from './resources-banner.js';
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
  const config = typeof flags.config === 'string' ? await loadConfig(flags.config) : {};
  const parsed = parseServeArguments(argv, process.env, config);
  if (parsed === 'help') {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const seedFile = flags[SERVE_OPTIONS.seed.flag];
  const seedData = typeof seedFile === 'string' ? await loadSeedData(seedFile) : [];
  const options: ServerOptions = seedData.length === 0 ? parsed : { ...parsed, seed: [...(parsed.seed ?? []), ...seedData] };
  const server = await startServer(options);
  if (options.logLevel !== 'silent') process.stdout.write(banner(server, options));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
  return 0;
}

/** What a person needs at start: where, what, and how credentials are treated (never the tokens). */
function banner(server: RunningServer, options: ServerOptions): string {
  const { document } = server;
  const lines = [`plantstore serving ${document.title} ${document.version} from ${document.source}`, `listening on ${server.url}`, 'operations:'];
  for (const operation of document.operations) {
    const store = options.dataDir === undefined ? 'in-memory store' : `kept in ${options.dataDir}`;
    const kind = operation.iid === STATEFUL_OPERATION ? `stateful, ${store}` : 'mocked from the document';
    const auth = describeSecurity(securityOf(operation));
    lines.push(`  ${operation.method.toUpperCase().padEnd(6)} ${operation.path.padEnd(20)} ${operationName(operation).padEnd(16)} ${kind}, ${auth}`);
  }
  lines.push(...resourceLines(server.resources));
  const first = document.operations[0];
  const status = options.authStatus ?? (first ? declaredFailureStatus(first) : 400);
  lines.push(
    server.tokenPolicy === 'configured'
      ? `tokens: ${options.tokens?.length ?? 0} configured; other tokens are refused`
      : 'tokens: none configured, so ANY non-empty bearer token is accepted (use --token to restrict)',
    `refused credentials: HTTP ${status} with Error code 401 and WWW-Authenticate: Bearer`,
    `cors: ${options.cors === false ? 'off' : 'on (any origin)'}`,
    `control API: ${server.url}${CONTROL_PREFIX} (${options.adminToken === undefined ? `open: no --admin-token; ${controlHosts(options.allowedHosts ?? [])}` : 'admin token required'}; described by spec/control-api.yaml)`,
    ...(options.adminToken === undefined && options.allowedHosts?.includes(ANY_HOST)
      ? [
          "warning: --allow-host '*': any web page the developer visits can reach the open control API through DNS rebinding; prefer naming the hosts, or set --admin-token",
        ]
      : []),
    `plants: ${options.dataDir === undefined ? 'in memory (lost on exit)' : `kept in ${options.dataDir}`}${options.isolateByToken ? ', one store per bearer token' : ''}`,
    '',
  );
  // Paths, titles and operation names are user text: none may reach the terminal raw.
  return `${lines.map(printable).join('\n')}\n`;
}

function controlHosts(allowed: readonly string[]): string {
  if (allowed.includes(ANY_HOST)) return 'any Host';
  return `Host localhost, *.localhost, IP addresses${allowed.length > 0 ? `, ${allowed.join(', ')}` : ''}`;
}
