/**
 * The server's options and their defaults, as plain data; the composition (src/server/start-server.ts)
 * reads them, and so do the CLI and the config file.
 */
import type { FaultSpec } from '../faults/faults.js';
import type { LogLevel } from '../log/logger.js';
import type { Plant } from '../store/plant-store.js';

export interface ServerOptions {
  /** OpenAPI document: a file path (YAML or JSON) or a parsed object. Default: the bundled Plant Store. */
  readonly spec?: string | object;
  /** 0 picks a free port. Default 4010. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Accepted bearer tokens. None: any non-empty bearer token is accepted. */
  readonly tokens?: readonly string[];
  /** Only this bearer token opens the control API (/__control); without it the control API is open to the Hosts of `allowedHosts`. */
  readonly adminToken?: string;
  /**
   * Without an admin token the control API answers only requests whose Host is a loopback name or
   * an IP address (against DNS rebinding), or one of these names; '*' allows every name.
   */
  readonly allowedHosts?: readonly string[];
  /** HTTP status of an authentication failure. Default: the operation's declared failure status (400 here). */
  readonly authStatus?: 400 | 401;
  /** Add the id to the created Plant. Default false: the document's Plant has name and tag only. */
  readonly echoId?: boolean;
  /** Answer cross-origin requests (and preflights) from browsers. Default true. */
  readonly cors?: boolean;
  /** Largest accepted request body. Default 1 MiB. */
  readonly bodyLimitBytes?: number;
  /**
   * Bytes of request bodies held at once across all requests being received; a request that would
   * pass it gets 503 with Retry-After. Default 64 MiB, and never below bodyLimitBytes.
   */
  readonly bodyBufferBytes?: number;
  /** Time allowed to receive a whole request; a slower one gets 408. Default 10 s. */
  readonly requestTimeoutMs?: number;
  /** Each bearer token gets its own plant store and journal view. Default false. */
  readonly isolateByToken?: boolean;
  /** Plants the (shared) store starts with. */
  readonly seed?: readonly Plant[];
  /** Faults active from the start. */
  readonly faults?: readonly FaultSpec[];
  /** Keep the plants in this folder across restarts (append-only log, fsync'd before each answer). Default: memory only. */
  readonly dataDir?: string;
  /** With isolateByToken: tenants held in memory at most (besides the shared one); the least recently used idle one is evicted. Default 1000. */
  readonly maxTenants?: number;
  /** Requests the journal keeps; 0 keeps none. Default 1000. */
  readonly journalSize?: number;
  /** The most bytes (kept bodies and request headers) the journal holds; the oldest entries go first. Default 64 MiB. */
  readonly journalBytes?: number;
  /** Default 'silent' for code, 'info' for the CLI. */
  readonly logLevel?: LogLevel;
  /** Where log lines go; default stdout. */
  readonly log?: (line: string) => void;
}

export const DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  bodyLimitBytes: 1024 * 1024,
  bodyBufferBytes: 64 * 1024 * 1024,
  requestTimeoutMs: 10_000,
  maxTenants: 1_000,
} as const;
