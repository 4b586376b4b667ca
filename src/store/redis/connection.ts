/**
 * The connection to the Redis (or Valkey) that replicas share (serve --store redis://…, issue 22):
 * the URL read and shown without its password, and a client that fails fast. While Redis is away a
 * command is refused at once (no offline queue) or after `commandTimeoutMs`, never queued to run
 * later, so a request gets a 503 within its timeout and a change is never applied behind an answer
 * already given. The client reconnects by itself; the next command after that works again.
 */
import { createHash } from 'node:crypto';
// Only the type at import: ioredis is ~100 modules, loaded by connectRedis when --store names a Redis.
import type { Redis } from 'ioredis';
import { PlantstoreError } from '../../core/errors.js';

/** What --store names: the in-process store, or a Redis URL. */
export type StoreTarget = { readonly kind: 'memory' } | { readonly kind: 'redis'; readonly url: string; readonly shown: string };

/** Reads --store: 'memory', or redis://[user:pass@]host:port[/db] and rediss:// (TLS). */
export function parseStoreTarget(text: string): StoreTarget {
  if (text === 'memory') return { kind: 'memory' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PlantstoreError('usage', `--store must be memory or a redis:// or rediss:// URL, not ${JSON.stringify(redactText(text))}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new PlantstoreError('usage', `--store must be memory or a redis:// or rediss:// URL, not a ${url.protocol}// URL`);
  if (url.hostname === '') throw new PlantstoreError('usage', '--store: the Redis URL names no host, e.g. redis://127.0.0.1:6379');
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^(0|[1-9][0-9]{0,3})$/.test(db)) throw new PlantstoreError('usage', `--store: the database after the host must be a number, not "${db}"`);
  return { kind: 'redis', url: text, shown: redactedUrl(url) };
}

/** The URL as a log, banner or health may show it: the password replaced by ***. */
export function redactedUrl(url: URL): string {
  if (url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.password = '***';
  return copy.href;
}

/** Text that failed to parse as a URL may still hold user:pass@: cut everything before the @. */
function redactText(text: string): string {
  const at = text.lastIndexOf('@');
  return at === -1 ? text : `***${text.slice(at)}`;
}

/** Redis did not answer, or refused: what the store's 503 names (the URL without its password). */
export class StoreUnavailableError extends PlantstoreError {
  override readonly name = 'StoreUnavailableError';

  constructor(shown: string, cause: unknown) {
    super('setup', `the shared store at ${shown} did not answer: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface RedisConnection {
  readonly client: Redis;
  /** The URL without its password. */
  readonly shown: string;
  /** Runs a Lua script (EVALSHA, loading it on NOSCRIPT); a failure is a StoreUnavailableError. */
  script(lua: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
  /** Runs one command through `call`; a failure is a StoreUnavailableError. */
  call<T>(run: (client: Redis) => Promise<T>): Promise<T>;
  /** A second connection (for blocking reads), closed with this one. */
  duplicate(): Redis;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The longest a command may take before it fails (a request must get its 503 within its own timeout). */
  readonly commandTimeoutMs: number;
  /** Told of connection trouble, at most once per outage (the server logs a warning). */
  readonly onProblem?: (message: string) => void;
  /** Told when the connection is back after trouble. */
  readonly onRecovered?: () => void;
}

/** Connects, or fails the start with a clear error naming the URL (never its password). */
export async function connectRedis(target: Extract<StoreTarget, { kind: 'redis' }>, options: ConnectOptions): Promise<RedisConnection> {
  const settings = {
    lazyConnect: true,
    enableOfflineQueue: false,
    // A command is sent once: a retry after a reconnect could apply a create twice and answer 409.
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(500, options.commandTimeoutMs),
    // Integers beyond 2^53 (an allocation sequence moved past a seeded int64 id) come back exact.
    stringNumbers: true,
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
    enableAutoPipelining: true,
  } as const;
  const { Redis } = await import('ioredis');
  const client = new Redis(target.url, settings);
  const extra: Redis[] = [];
  let troubled = false;
  let started = false;
  let lastError: string | undefined;
  let closing = false;
  const trouble = (why: string) => {
    // Before the start succeeds, the start's own error says it.
    if (troubled || !started || closing) return;
    troubled = true;
    options.onProblem?.(`the shared store at ${target.shown} is unreachable (${why}); requests get 503 until it is back`);
  };
  const watch = (each: Redis) => {
    each.on('error', (error: Error) => {
      lastError = error.message;
      trouble(error.message);
    });
    // A Redis that went away and came back before a reconnect failed raises no error: the close says it.
    each.on('close', () => trouble('the connection was closed'));
    each.on('ready', () => {
      if (!troubled) return;
      troubled = false;
      options.onRecovered?.();
    });
  };
  watch(client);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const cause = lastError ?? (error instanceof Error ? error.message : String(error));
    throw new PlantstoreError('setup', `--store: cannot reach Redis at ${target.shown}: ${cause}`);
  }
  started = true;
  const shas = new Map<string, string>();
  const call = async <T>(run: (redis: Redis) => Promise<T>): Promise<T> => {
    try {
      return await run(client);
    } catch (error) {
      throw new StoreUnavailableError(target.shown, error);
    }
  };
  return {
    client,
    shown: target.shown,
    call,
    async script(lua, keys, args) {
      let sha = shas.get(lua);
      if (sha === undefined) shas.set(lua, (sha = createHash('sha1').update(lua).digest('hex')));
      try {
        return await client.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw new StoreUnavailableError(target.shown, error);
      }
      return call((redis) => redis.eval(lua, keys.length, ...keys, ...args));
    },
    duplicate() {
      const copy = client.duplicate({ commandTimeout: undefined, lazyConnect: false });
      copy.on('error', () => {});
      extra.push(copy);
      return copy;
    },
    async close() {
      closing = true;
      for (const each of extra) each.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
