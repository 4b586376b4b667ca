/**
 * Sends the suite's requests to the target over one keep-alive undici Pool and turns
 * every outcome into plain data: an answer (status, headers, body text) or a classified error.
 * It never throws for what the target does; only a request it cannot even build throws (see `send`).
 */
import { Pool } from 'undici';
import { flattenHeaders } from '../../src/core/http/headers.js';
import type { ReceivedResponse, SentRequest } from '../report.js';
import { classifyError } from './classify-error.js';
import { PlantstoreError } from '../../src/core/errors.js';
import { revealHeaders, revealUrl, secretMap, type Secret } from './secrets.js';

export interface ClientOptions {
  /** Requests in flight at once: one keep-alive connection each. */
  readonly connections: number;
  /** Per request: the answer's headers, and then each stretch of its body, must come within this. */
  readonly timeoutMs: number;
  /** The values of the "$TOKEN"-style variables requests carry: filled in here, on the wire only (see secrets.ts). */
  readonly secrets?: readonly Secret[];
}

export interface HttpClient {
  /** The target's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** Sends `request` (its url must be on the target) and reports what came back. */
  send(request: SentRequest, options?: { readonly timeoutMs?: number }): Promise<ReceivedResponse>;
  close(): Promise<void>;
}

/** The full URL of `path` (e.g. "/plants") on a target that may carry a base path ("http://h/api"). */
export function urlOn(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

export function createClient(target: string, options: ClientOptions): HttpClient {
  const base = new URL(target);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`the target must be an http(s) URL, not ${target}`);
  }
  const pool = new Pool(base.origin, {
    connections: Math.max(1, options.connections),
    pipelining: 1,
    // Backstops only: undici's own timers tick coarsely (about a second); the per-request timer in sendOn is exact.
    headersTimeout: options.timeoutMs + 1_000,
    bodyTimeout: options.timeoutMs + 1_000,
    // A target that is slow to accept counts as a timeout, not as an unreachable target.
    connect: { timeout: options.timeoutMs },
  });
  const secrets = secretMap(options.secrets ?? []);
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return {
    baseUrl,
    send: (request, overrides) => sendOn(pool, base.origin, request, overrides?.timeoutMs ?? options.timeoutMs, secrets),
    close: async () => {
      // destroy, not close: a hanging target must not keep the run waiting for its sockets.
      await pool.destroy();
    },
  };
}

async function sendOn(pool: Pool, origin: string, request: SentRequest, timeoutMs: number, secrets: ReadonlyMap<string, string>): Promise<ReceivedResponse> {
  const url = new URL(revealUrl(request.url, secrets));
  if (url.origin !== origin) throw new TypeError(`${request.url} is not on the target ${origin}`);
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new TimeoutError(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await pool.request({
      origin,
      path: url.pathname + url.search,
      method: request.method as 'POST',
      headers: revealHeaders(request.headers, secrets),
      body: request.body === undefined ? null : Buffer.from(request.body, 'utf8'),
      signal: deadline.signal,
    });
    const body = await response.body.text();
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    const classified = classifyError(error);
    // A request undici refuses to send (e.g. a header value with a newline) is our problem, not the target's.
    if (classified.kind === 'unsendable') throw new UnsendableRequestError(`${request.label}: ${classified.message}`);
    return { headers: {}, body: '', durationMs: performance.now() - started, error: { kind: classified.kind, message: classified.message } };
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends PlantstoreError {
  override readonly name = 'TimeoutError';

  constructor(message: string) {
    super('timeout', message);
  }
}

/** A request the HTTP client refused to put on the wire; the runner skips such a case. */
export class UnsendableRequestError extends PlantstoreError {
  override readonly name = 'UnsendableRequestError';

  constructor(message: string) {
    super('unsendable', message);
  }
}
