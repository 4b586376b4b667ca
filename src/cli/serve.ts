import { parseArgs } from 'node:util';
import { operationName } from '../document/load-document.js';
import { declaredFailureStatus } from '../http/refusal.js';
import { ANY_HOST } from '../http/host-check.js';
import { DEFAULTS, type ServerOptions } from '../http/server.js';
import { CONTROL_PREFIX, startServer, type RunningServer } from '../server/start-server.js';
import { CONFIG_LIMITS, loadConfig, type ServeConfig } from '../control/config.js';
import { loadSeedData } from '../control/seed-data.js';
import { requiresBearer } from '../auth/bearer.js';
import { STATEFUL_OPERATION } from '../handlers/bind-api.js';
import { JOURNAL_DEFAULTS } from '../journal/journal.js';
import { isLogLevel, LOG_LEVELS, printable } from '../log/logger.js';
import { UsageError } from './usage-error.js';

export const SERVE_HELP = `Usage: plantstore serve [options]

Serves an OpenAPI document: POST /plants (createPlant) on a stateful in-memory store,
every other operation mocked from the document by prism-http.

Options:
  --spec FILE              OpenAPI document, YAML or JSON (default: the bundled Plant Store)
  --port N                 port to listen on; 0 picks a free one (default ${DEFAULTS.port})
  --host H                 address to listen on (default ${DEFAULTS.host})
  --token T                accept this bearer token; repeat for more. Also PLANTSTORE_TOKENS=a,b.
                           Without tokens any non-empty bearer token is accepted
  --auth-status 400|401    HTTP status for refused credentials (default: the operation's
                           declared failure status, 400 for the Plant Store)
  --echo-id                add the id to the created Plant
  --no-cors                do not answer cross-origin browser requests
  --body-limit BYTES       largest request body (default ${DEFAULTS.bodyLimitBytes})
  --body-buffer-bytes N    request-body bytes held at once across all requests being received;
                           past it a request gets 503 + Retry-After (default ${DEFAULTS.bodyBufferBytes},
                           at least --body-limit)
  --request-timeout-ms MS  time to receive a whole request before 408 (default ${DEFAULTS.requestTimeoutMs})
  --isolate-by-token       every bearer token gets its own plant store and journal view
  --data-dir DIR           keep the plants in DIR across restarts (default: memory only)
  --max-tenants N          with --isolate-by-token, tenants held in memory at most; the least
                           recently used idle one is evicted (default ${DEFAULTS.maxTenants}). Without
                           --data-dir an evicted tenant's plants are gone
  --journal-size N         requests kept in the journal (default ${JOURNAL_DEFAULTS.capacity}; 0 keeps none)
  --journal-bytes BYTES    bytes of bodies and request headers the journal holds at most;
                           the oldest go first (default ${JOURNAL_DEFAULTS.bytes})
  --admin-token T          require this bearer token on the control API (${CONTROL_PREFIX}); API tokens
                           never open it. Also PLANTSTORE_ADMIN_TOKEN. Without it the control API is open
  --allow-host NAME        without --admin-token the control API answers only Host localhost, *.localhost
                           or an IP address (against DNS rebinding); also answer this name (e.g. a
                           docker-compose service). Repeat for more; '*' allows every name
  --seed-data FILE         start with the plants of this JSON array of NewPlant
  --config FILE            read options from a YAML/JSON file (flags given here win)
  --log-level LEVEL        ${LOG_LEVELS.join('|')} (default info: one line per request)
  -h, --help               this help
`;

const SERVE_FLAGS = {
      spec: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string', multiple: true },
      'auth-status': { type: 'string' },
      'echo-id': { type: 'boolean' },
      'no-cors': { type: 'boolean' },
      'body-limit': { type: 'string' },
      'body-buffer-bytes': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      'log-level': { type: 'string' },
      'isolate-by-token': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'max-tenants': { type: 'string' },
      'journal-size': { type: 'string' },
      'journal-bytes': { type: 'string' },
      'admin-token': { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'seed-data': { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
} as const;

function readFlags(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: SERVE_FLAGS }).values;
}

/**
 * Turns `plantstore serve` arguments into server options; throws UsageError with the flag at fault.
 * Each option comes from its flag, else the config file (`--config`, read by the caller), else its default.
 */
export function parseServeArguments(argv: readonly string[], environment: NodeJS.ProcessEnv = process.env, config: ServeConfig = {}): ServerOptions | 'help' {
  const values = readFlags(argv);
  if (values.help) return 'help';
  const fromEnvironment = (environment.PLANTSTORE_TOKENS ?? '').split(',').map((token) => token.trim()).filter(Boolean);
  const authStatus = values['auth-status'];
  if (authStatus !== undefined && authStatus !== '400' && authStatus !== '401') throw new UsageError(`--auth-status must be 400 or 401, not "${authStatus}"`);
  const logLevel = values['log-level'] ?? config.logLevel ?? 'info';
  if (!isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}"`);
  if (values.token?.some((token) => token.trim() === '')) throw new UsageError('--token must not be empty');
  const adminToken = values['admin-token'] ?? (environment.PLANTSTORE_ADMIN_TOKEN || undefined) ?? config.adminToken;
  if (adminToken !== undefined && adminToken.trim() === '') throw new UsageError('--admin-token must not be empty');
  if (values['allow-host']?.some((host) => host.trim() === '')) throw new UsageError('--allow-host must not be empty');
  const allowedHosts = [...(values['allow-host'] ?? []), ...(config.allowedHosts ?? [])];
  const spec = values.spec ?? config.spec;
  const dataDir = values['data-dir'] ?? config.dataDir;
  const status = authStatus !== undefined ? (authStatus === '401' ? 401 : 400) : config.authStatus;
  const bodyLimitBytes = integerOption('--body-limit', values['body-limit'], config.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes, ...CONFIG_LIMITS.bodyLimitBytes);
  const bufferText = values['body-buffer-bytes'];
  const bodyBufferBytes = bufferText === undefined ? config.bodyBufferBytes : integerOption('--body-buffer-bytes', bufferText, 0, ...CONFIG_LIMITS.bodyBufferBytes);
  if (bodyBufferBytes !== undefined && bodyBufferBytes < bodyLimitBytes) {
    throw new UsageError(`--body-buffer-bytes (${bodyBufferBytes}) must be at least --body-limit (${bodyLimitBytes}), or no body the limit allows could be received`);
  }
  return {
    ...(spec !== undefined ? { spec } : {}),
    port: integerOption('--port', values.port, config.port ?? DEFAULTS.port, ...CONFIG_LIMITS.port),
    host: values.host ?? config.host ?? DEFAULTS.host,
    tokens: [...(values.token ?? []), ...fromEnvironment, ...(config.tokens ?? [])],
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
    ...(status !== undefined ? { authStatus: status } : {}),
    echoId: values['echo-id'] ?? config.echoId ?? false,
    cors: values['no-cors'] ? false : (config.cors ?? true),
    bodyLimitBytes,
    ...(bodyBufferBytes !== undefined ? { bodyBufferBytes } : {}),
    requestTimeoutMs: integerOption('--request-timeout-ms', values['request-timeout-ms'], config.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs, ...CONFIG_LIMITS.requestTimeoutMs),
    isolateByToken: values['isolate-by-token'] ?? config.isolateByToken ?? false,
    ...(dataDir !== undefined ? { dataDir } : {}),
    maxTenants: integerOption('--max-tenants', values['max-tenants'], config.maxTenants ?? DEFAULTS.maxTenants, ...CONFIG_LIMITS.maxTenants),
    journalSize: integerOption('--journal-size', values['journal-size'], config.journalSize ?? JOURNAL_DEFAULTS.capacity, ...CONFIG_LIMITS.journalSize),
    journalBytes: integerOption('--journal-bytes', values['journal-bytes'], config.journalBytes ?? JOURNAL_DEFAULTS.bytes, ...CONFIG_LIMITS.journalBytes),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.faults !== undefined ? { faults: config.faults } : {}),
    logLevel,
  };
}

export async function runServe(argv: readonly string[]): Promise<number> {
  const flags = readFlags(argv);
  const config = flags.config === undefined ? {} : await loadConfig(flags.config);
  const parsed = parseServeArguments(argv, process.env, config);
  if (parsed === 'help') {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const seedData = flags['seed-data'] === undefined ? [] : await loadSeedData(flags['seed-data']);
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
    const auth = requiresBearer(operation) ? 'bearer' : 'open';
    lines.push(`  ${operation.method.toUpperCase().padEnd(6)} ${operation.path.padEnd(20)} ${operationName(operation).padEnd(16)} ${kind}, ${auth}`);
  }
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
      ? ["warning: --allow-host '*': any web page the developer visits can reach the open control API through DNS rebinding; prefer naming the hosts, or set --admin-token"]
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

function integerOption(flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  return parsed;
}
