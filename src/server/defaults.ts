/**
 * startServer's options with the serve table's defaults applied, once, at start: code callers skip
 * the CLI's resolveOptions, so the composition reads settled values and never `?? DEFAULTS.x`.
 */
import { PlantstoreError } from '../core/errors.js';
import type { ServerOptions } from './options/server-options.js';
import { SERVE_DEFAULTS, SERVE_OPTIONS } from './options/table.js';

/** The options every start needs a value for. */
export interface SettledOptions {
  readonly port: number;
  readonly host: string;
  readonly tokens: readonly string[];
  readonly cors: boolean;
  readonly echoId: boolean;
  readonly isolateByToken: boolean;
  readonly bodyLimitBytes: number;
  readonly bodyBufferBytes: number;
  readonly requestTimeoutMs: number;
  readonly maxTenants: number;
  readonly journalSize: number;
  readonly journalBytes: number;
  readonly allowedHosts: readonly string[];
  readonly journalStreamBytes: number;
  readonly proxyBodyLimit: number;
  readonly webhookMaxPending: number;
  readonly webhookHistory: number;
}

export type Settled = ServerOptions & SettledOptions;

export function settleOptions(options: ServerOptions): Settled {
  const bodyLimitBytes = options.bodyLimitBytes ?? SERVE_DEFAULTS.bodyLimitBytes;
  // The table's default, raised to the body limit: below it a body the limit allows could never be received.
  const bodyBufferBytes = options.bodyBufferBytes ?? Math.max(SERVE_DEFAULTS.bodyBufferBytes, bodyLimitBytes);
  if (bodyBufferBytes < bodyLimitBytes) {
    throw new PlantstoreError('setup', `bodyBufferBytes (${bodyBufferBytes}) must be at least bodyLimitBytes (${bodyLimitBytes})`);
  }
  return {
    ...options,
    port: options.port ?? SERVE_DEFAULTS.port,
    host: options.host ?? SERVE_DEFAULTS.host,
    tokens: options.tokens ?? [],
    cors: options.cors ?? SERVE_OPTIONS.cors.default,
    echoId: options.echoId ?? SERVE_OPTIONS.echoId.default,
    isolateByToken: options.isolateByToken ?? SERVE_OPTIONS.isolateByToken.default,
    // tokenLifetime has no default to settle: absent, each issuing answer's `expires_in` says (docs/sign-in.md).
    bodyLimitBytes,
    bodyBufferBytes,
    requestTimeoutMs: options.requestTimeoutMs ?? SERVE_DEFAULTS.requestTimeoutMs,
    maxTenants: options.maxTenants ?? SERVE_DEFAULTS.maxTenants,
    journalSize: options.journalSize ?? SERVE_DEFAULTS.journalSize,
    journalBytes: options.journalBytes ?? SERVE_DEFAULTS.journalBytes,
    allowedHosts: options.allowedHosts ?? [],
    journalStreamBytes: options.journalStreamBytes ?? SERVE_DEFAULTS.journalStreamBytes,
    proxyBodyLimit: options.proxyBodyLimit ?? SERVE_DEFAULTS.proxyBodyLimit,
    webhookMaxPending: options.webhookMaxPending ?? SERVE_DEFAULTS.webhookMaxPending,
    webhookHistory: options.webhookHistory ?? SERVE_DEFAULTS.webhookHistory,
  };
}
