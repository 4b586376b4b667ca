/**
 * Every `plantstore serve` option, declared once. The flags, --help, the config-file schema, the
 * defaults and the option types are all generated from this table (machinery: src/core/options.ts);
 * adding an option is one entry here plus its use in the server.
 */
import { renderOptionsHelp, type OptionTable, type OptionValues } from '../../core/options.js';
import { JOURNAL_DEFAULTS } from '../../journal/journal.js';
import { LOG_FORMATS, LOG_LEVELS } from '../../log/logger.js';
import { JOURNAL_STREAM_LIMITS } from '../../control/journal-events.js';
import { PROXY_LIMITS } from '../../proxy/limits.js';
import { WEBHOOK_LIMITS } from '../../webhooks/limits.js';

export const SERVE_OPTIONS = {
  /** OpenAPI document: a file path (YAML or JSON). Default: the bundled Plant Store. */
  spec: { type: 'string', flag: 'spec', argument: 'FILE', nonEmpty: true, help: 'OpenAPI document, YAML or JSON (default: the bundled Plant Store example)' },
  /** 0 picks a free port. Default 4010. */
  port: { type: 'integer', flag: 'port', argument: 'N', min: 0, max: 65_535, default: 4010, help: 'port to listen on; 0 picks a free one (default {default})' },
  /** Default 127.0.0.1. */
  host: { type: 'string', flag: 'host', argument: 'H', nonEmpty: true, default: '127.0.0.1', help: 'address to listen on (default {default})' },
  /** Accepted credentials, for every scheme (docs/auth.md). None: any non-empty credential is accepted. */
  tokens: {
    type: 'strings',
    flag: 'token',
    argument: 'T',
    env: 'PLANTSTORE_TOKENS',
    nonEmpty: true,
    secret: true,
    gathered: true,
    default: [],
    help: 'accept this token for every scheme: bearer token, API key, Basic\nuser:password or password; repeat for more. Also PLANTSTORE_TOKENS=a,b.\nWithout tokens any non-empty credential is accepted',
  },
  /** HTTP status of an authentication failure. Default: the operation's declared failure status (400 here). */
  authStatus: {
    type: 'enum',
    flag: 'auth-status',
    argument: '400|401',
    values: [400, 401],
    help: "HTTP status for refused credentials (default: the operation's\ndeclared failure status)",
  },
  /** Add the identifier to the store's answers whose schema leaves it out (the Plant Store's Plant has name and tag only). Default false. */
  echoId: { type: 'boolean', flag: 'echo-id', default: false, help: "add the identifier to the store's answers whose schema leaves it out" },
  /** Reload the document (and the config and seed files) when one changes, keeping the stored items; a broken file keeps the last good one. Default false. */
  watch: {
    type: 'boolean',
    flag: 'watch',
    default: false,
    help: 'reload the document, config and seed files when one changes (stored\nitems are kept; a broken file keeps the last good one in force)',
  },
  /** Answer cross-origin requests (and preflights) from browsers. Default true. */
  cors: { type: 'boolean', flag: 'no-cors', negated: true, default: true, help: 'do not answer cross-origin browser requests' },
  /** Largest accepted request body. Default 1 MiB. */
  bodyLimitBytes: {
    type: 'integer',
    flag: 'body-limit',
    argument: 'BYTES',
    min: 1,
    max: 2 ** 31,
    default: 1024 * 1024,
    help: 'largest request body (default {default})',
  },
  /** Bytes of request bodies held at once across all requests being received; a request that would pass it gets 503 with Retry-After. Default 64 MiB, and never below bodyLimitBytes. */
  bodyBufferBytes: {
    type: 'integer',
    flag: 'body-buffer-bytes',
    argument: 'N',
    min: 1,
    max: 2 ** 40,
    default: 64 * 1024 * 1024,
    // The server raises it to bodyLimitBytes when the limit is larger.
    defaultApplied: false,
    help: 'request-body bytes held at once across all requests being received;\npast it a request gets 503 + Retry-After (default {default},\nat least --body-limit)',
  },
  /** Time allowed to receive a whole request; a slower one gets 408. Default 10 s. */
  requestTimeoutMs: {
    type: 'integer',
    flag: 'request-timeout-ms',
    argument: 'MS',
    min: 100,
    max: 3_600_000,
    default: 10_000,
    help: 'time to receive a whole request before 408 (default {default})',
  },
  /** Each bearer token gets its own store and journal view. Default false. */
  isolateByToken: { type: 'boolean', flag: 'isolate-by-token', default: false, help: 'every bearer token gets its own store and journal view' },
  /** Seconds a token a sign-in issues is honoured (docs/sign-in.md): overrides the `expires_in` the answers declare. Default: theirs (none: tokens last). */
  tokenLifetime: {
    type: 'integer',
    flag: 'token-lifetime',
    argument: 'SECONDS',
    min: 1,
    max: 315_360_000,
    help: "seconds a token a sign-up or log-in issued is honoured, then refused as\nexpired (default: the answer's expires_in, else they never expire)",
  },
  /** Keep the stored items in this folder across restarts (append-only log, fsync'd before each answer). Default: memory only. */
  dataDir: { type: 'string', flag: 'data-dir', argument: 'DIR', nonEmpty: true, help: 'keep the stored items in DIR across restarts (default: memory only)' },
  /** Where items, faults and the journal are kept: 'memory' (this process) or a Redis URL that replicas share. Default memory. */
  store: {
    type: 'string',
    flag: 'store',
    argument: 'URL',
    env: 'PLANTSTORE_STORE',
    nonEmpty: true,
    secret: true,
    default: 'memory',
    help: 'memory (default), or redis://[user:pass@]host:port[/db] (rediss:// for TLS):\nitems, faults, journal and webhook deliveries kept in Redis, shared by\nevery replica on it',
  },
  /** Where the document's webhooks are delivered after each create (retried with backoff). Default: not delivered. */
  webhook: {
    type: 'string',
    flag: 'webhook',
    argument: 'URL',
    nonEmpty: true,
    help: "after each create, deliver the document's webhooks whose payload is\nthat resource's schema to URL, retried with backoff (default: none)",
  },
  /** With webhook: deliveries waiting (being sent or retried) at once; a delivery beyond it is dropped, counted in health and warned of. Default 1000. */
  webhookMaxPending: {
    type: 'integer',
    flag: 'webhook-max-pending',
    argument: 'N',
    min: 1,
    max: 1_000_000,
    default: WEBHOOK_LIMITS.maxPending,
    help: 'with --webhook, deliveries waiting at once; past it a new one is\ndropped, counted (health, /__control/webhooks) and logged (default {default})',
  },
  /** With webhook: the last deliveries /__control/webhooks shows, whatever their state. Default 200. */
  webhookHistory: {
    type: 'integer',
    flag: 'webhook-history',
    argument: 'N',
    min: 0,
    max: 1_000_000,
    default: WEBHOOK_LIMITS.history,
    help: 'with --webhook, the last deliveries /__control/webhooks shows (default {default})',
  },
  /** With isolateByToken: tenants held in memory at most (besides the shared one); the least recently used idle one is evicted. Default 1000. */
  maxTenants: {
    type: 'integer',
    flag: 'max-tenants',
    argument: 'N',
    min: 1,
    max: 10_000_000,
    default: 1_000,
    help: "with --isolate-by-token, tenants held in memory at most; the least\nrecently used idle one is evicted (default {default}). Without\n--data-dir an evicted tenant's items are gone",
  },
  /** Requests the journal keeps; 0 keeps none. Default 1000. */
  journalSize: {
    type: 'integer',
    flag: 'journal-size',
    argument: 'N',
    min: 0,
    max: 1_000_000,
    default: JOURNAL_DEFAULTS.capacity,
    help: 'requests kept in the journal (default {default}; 0 keeps none)',
  },
  /** The most bytes (kept bodies and request headers) the journal holds; the oldest entries go first. Default 64 MiB. */
  journalBytes: {
    type: 'integer',
    flag: 'journal-bytes',
    argument: 'BYTES',
    min: 0,
    max: 2 ** 40,
    default: JOURNAL_DEFAULTS.bytes,
    help: 'bytes of bodies and request headers the journal holds at most;\nthe oldest go first (default {default})',
  },
  /** Bytes a journal stream (SSE) may have waiting for a slow reader; past it the stream is told and ended. Default 1 MiB. */
  journalStreamBytes: {
    type: 'integer',
    flag: 'journal-stream-bytes',
    argument: 'BYTES',
    min: 4096,
    max: 2 ** 30,
    default: JOURNAL_STREAM_LIMITS.queueBytes,
    help: 'bytes a live journal stream may have waiting for a reader that\nfalls behind; past it the stream is told and ended (default {default})',
  },
  /** Only this bearer token opens the control API (/__control); without it the control API is open to the Hosts of `allowedHosts`. */
  adminToken: {
    type: 'string',
    flag: 'admin-token',
    argument: 'T',
    env: 'PLANTSTORE_ADMIN_TOKEN',
    nonEmpty: true,
    secret: true,
    help: 'require this bearer token on the control API (/__control); API tokens\nnever open it. Also PLANTSTORE_ADMIN_TOKEN. Without it the control API is open',
  },
  /** Without an admin token the control API answers only requests whose Host is a loopback name or an IP address (against DNS rebinding), or one of these names; '*' allows every name. */
  allowedHosts: {
    type: 'strings',
    flag: 'allow-host',
    argument: 'NAME',
    nonEmpty: true,
    gathered: true,
    help: "without --admin-token the control API answers only Host localhost, *.localhost\nor an IP address (against DNS rebinding); also answer this name (e.g. a\ndocker-compose service). Repeat for more; '*' allows every name",
  },
  // --seed-data adds the items of a file to those of the config file's `seed` (read by the CLI).
  seed: { type: 'data', flag: 'seed-data', argument: 'FILE', help: 'start with the items of this JSON file: {"<resource>": [items]}' },
  faults: { type: 'data', help: 'faults active from the start (config file only)' },
  /** Settles resource inference per collection path: {"/pets": {id, assignedBy, name, stateful, envelope}}. */
  resources: { type: 'data', help: 'settle resource inference per collection path (config file only)' },
  config: { type: 'string', flag: 'config', argument: 'FILE', inConfig: false, help: 'read options from a YAML/JSON file (flags given here win)' },
  /** Default 'silent' for code, 'info' for the CLI. */
  logLevel: {
    type: 'enum',
    flag: 'log-level',
    argument: 'LEVEL',
    values: LOG_LEVELS,
    default: 'info',
    help: `${LOG_LEVELS.join('|')} (default {default}: one line per request, a refusal's\nerror code and message on it; debug adds every violation found)`,
  },
  /** text for people, json (one object per line: time, level, method, path, operation, status, durationMs, tenant, error, fault) for log collectors. */
  logFormat: {
    type: 'enum',
    flag: 'log-format',
    argument: 'text|json',
    values: LOG_FORMATS,
    default: 'text',
    help: 'text, or json: one JSON object per line (default {default})',
  },
  /** Proxy mode: forward every API request to this base URL and judge its answers; the store is not used. */
  proxy: {
    type: 'string',
    flag: 'proxy',
    argument: 'URL',
    nonEmpty: true,
    help: 'forward every API request to the real implementation at URL and\njudge request and answer against the document (journal: violations)',
  },
  /** With --proxy: refuse a request without the document's credentials or an invalid one (not forwarded) and answer a violating answer with a 502 Error. */
  proxyStrict: {
    type: 'boolean',
    flag: 'proxy-strict',
    default: false,
    help: 'with --proxy: refuse requests without the credentials the document\ndemands and invalid ones, and answer a 502 Error naming the\nviolation instead of a violating answer',
  },
  /** With proxy: the largest answer body judged; a larger one is passed on unjudged (the journal says so) or, with proxyStrict, refused with 502. Default 4 MiB. */
  proxyBodyLimit: {
    type: 'integer',
    flag: 'proxy-body-limit',
    argument: 'BYTES',
    min: 1,
    max: 2 ** 30,
    default: PROXY_LIMITS.bodyBytes,
    help: 'with --proxy, the largest answer body judged; a larger one is streamed\nthrough unjudged (the journal says so), or with --proxy-strict answered\nwith a 502 Error (default {default})',
  },
  help: { type: 'boolean', flag: 'help', short: 'h', inConfig: false, help: 'this help' },
} as const satisfies OptionTable;

export type ServeOptionValues = OptionValues<typeof SERVE_OPTIONS>;

/** The defaults, as the server applies them when an option is not given. */
export const SERVE_DEFAULTS = {
  port: SERVE_OPTIONS.port.default,
  host: SERVE_OPTIONS.host.default,
  bodyLimitBytes: SERVE_OPTIONS.bodyLimitBytes.default,
  bodyBufferBytes: SERVE_OPTIONS.bodyBufferBytes.default,
  requestTimeoutMs: SERVE_OPTIONS.requestTimeoutMs.default,
  maxTenants: SERVE_OPTIONS.maxTenants.default,
  journalSize: SERVE_OPTIONS.journalSize.default,
  journalBytes: SERVE_OPTIONS.journalBytes.default,
  webhookMaxPending: SERVE_OPTIONS.webhookMaxPending.default,
  webhookHistory: SERVE_OPTIONS.webhookHistory.default,
  journalStreamBytes: SERVE_OPTIONS.journalStreamBytes.default,
  proxyBodyLimit: SERVE_OPTIONS.proxyBodyLimit.default,
} as const;

export const SERVE_HELP = `Usage: plantstore serve [options]

Serves an OpenAPI document: the operations of each resource inferred from it (create,
list, read, replace, update, delete) on a stateful in-memory store, every other
operation mocked from the document by prism-http. The banner says which is which.

Options:
${renderOptionsHelp(SERVE_OPTIONS, 26)}`;
