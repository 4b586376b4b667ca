/**
 * Sends the suite's requests to the target over one keep-alive undici Pool and turns
 * every outcome into plain data: an answer (status, headers, body text) or a classified error.
 * It never throws for what the target does; only a request it cannot even build throws (see `send`).
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import type { ReceivedResponse, SentRequest } from '../report.js';
import { classifyError, MAX_HEADER_BYTES } from './classify-error.js';
import { DEFAULTS } from '../options.js';
import { errorMessage, PlantstoreError } from '../../src/core/errors.js';
import { bodyConcealer, headerRevealer, revealUrl, secretMap, type Secret } from './secrets.js';

/**
 * undici's Pool and the 22 modules it needs, not undici's index: that loads 407 (fetch, WebSocket,
 * caches, mock agents), 90 ms of every verify start. The suite only dispatches through a Pool; the
 * path is undici's own file (undici is pinned, and declares no exports map that would hide it).
 */
const Pool = createRequire(import.meta.url)('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
type Pool = UndiciPool;

export interface ClientOptions {
  /** Requests in flight at once: one keep-alive connection each. */
  readonly connections: number;
  /** Per request: the answer's headers, and then each stretch of its body, must come within this. */
  readonly timeoutMs: number;
  /** An answer's body is read up to this many bytes; a longer one is cut off and reported as too large (memory stays bounded). */
  readonly maxAnswerBytes?: number;
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

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** A connection reset or closed before any answer: what a kept-alive connection the target closed as the request came gives. */
function isDropped(answer: ReceivedResponse): boolean {
  return answer.error?.kind === 'connection' && /ECONNRESET|EPIPE|other side closed|socket hang up/i.test(answer.error.message);
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
    // Said, not left to Node's default: the report names the figure when an answer's headers exceed it.
    maxHeaderSize: MAX_HEADER_BYTES,
  });
  const secrets = secretMap(options.secrets ?? []);
  const reveal = { url: (url: string) => revealUrl(url, secrets), headers: headerRevealer(secrets), body: bodyConcealer(secrets) };
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const sendOnce = (request: SentRequest, timeoutMs: number) =>
    sendOn(pool, base.origin, request, { timeoutMs, maxBytes: options.maxAnswerBytes ?? DEFAULTS.maxAnswerBytes }, reveal);
  return {
    baseUrl,
    send: async (request, overrides) => {
      const timeoutMs = overrides?.timeoutMs ?? options.timeoutMs;
      const answer = await sendOnce(request, timeoutMs);
      // A kept-alive connection the target closes as the request arrives (its keep-alive ended while this
      // run held its event loop: planning a large document takes seconds) drops the request unanswered.
      // HTTP clients send an idempotent request once more on a new connection (RFC 9112 §9.3.1); a target
      // that drops that one too is reported. A POST is never sent twice.
      return isDropped(answer) && IDEMPOTENT.has(request.method.toUpperCase()) ? sendOnce(request, timeoutMs) : answer;
    },
    close: async () => {
      // destroy, not close: a hanging target must not keep the run waiting for its sockets.
      await pool.destroy();
    },
  };
}

/**
 * One request through the Pool's dispatch, its answer gathered by a plain handler: the suite reads every
 * body whole, so undici's stream API (a Readable per answer, its abort-signal wiring) was per-request cost
 * for nothing — a third of verify's time went to undici and Node's stream internals.
 */
/** How a request's secret variables become the values on the wire (secrets.ts). */
interface Revealer {
  readonly url: (url: string) => string;
  readonly headers: (headers: Readonly<Record<string, string>>) => Readonly<Record<string, string>>;
  /** And back: an answer that says a secret carries its variable instead. */
  readonly body: (body: string) => string;
}

function sendOn(
  pool: Pool,
  origin: string,
  request: SentRequest,
  limits: { timeoutMs: number; maxBytes: number },
  reveal: Revealer,
): Promise<ReceivedResponse> {
  const { timeoutMs, maxBytes } = limits;
  const url = new URL(reveal.url(request.url));
  if (url.origin !== origin) throw new TypeError(`${request.url} is not on the target ${origin}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let abort: ((reason: Error) => void) | undefined;
    let timedOut: TimeoutError | undefined;
    let tooLarge: AnswerTooLargeError | undefined;
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const timer = setTimeout(() => {
      timedOut = new TimeoutError(`no complete answer within ${timeoutMs} ms`);
      // Still queued (every connection busy): nothing to abort yet, so the answer is given here; onConnect aborts it later.
      if (abort === undefined) failWith(timedOut);
      else abort(timedOut);
    }, timeoutMs);
    const failWith = (error: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks.length = 0;
      const classified = classifyError(timedOut ?? tooLarge ?? error);
      // A request undici refuses to send (e.g. a header value with a newline) is our problem, not the target's.
      if (classified.kind === 'unsendable') reject(new UnsendableRequestError(`${request.label}: ${classified.message}`));
      else resolve({ headers: {}, body: '', durationMs: performance.now() - started, error: { kind: classified.kind, message: classified.message } });
    };
    // Cuts the answer off: its bytes so far are dropped, the connection with them (undici then calls onError).
    const refuse = (declared: string): false => {
      tooLarge = new AnswerTooLargeError(
        errorMessage('answerTooLarge', `${maxBytes} bytes (--max-answer-bytes; status ${status}${declared}): the rest was not read`),
      );
      chunks.length = 0;
      abort?.(tooLarge);
      return false;
    };
    const handler: LegacyHandler = guarded(
      {
        onConnect(abortRequest) {
          abort = abortRequest;
          if (timedOut !== undefined) abortRequest(timedOut);
        },
        onHeaders(statusCode, rawHeaders) {
          if (statusCode < 200) return true; // an interim answer (100 Continue): the final one follows
          status = statusCode;
          headers = headersOf(rawHeaders);
          const declared = Number(headers['content-length']);
          // Said too large up front: nothing is read that would be thrown away.
          if (declared > maxBytes) return refuse(`, content-length ${declared}`);
          return true;
        },
        onData(chunk) {
          if (tooLarge !== undefined) return false;
          if (length + chunk.length > maxBytes) return refuse('');
          chunks.push(chunk);
          length += chunk.length;
          return true;
        },
        onComplete() {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status, headers, body: reveal.body(bodyText(chunks, length)), durationMs: performance.now() - started });
        },
        onError: failWith,
      },
      failWith,
    );
    try {
      const headers = reveal.headers(request.headers);
      // undici refuses these too, but only after the request took a connection, which it then never frees.
      for (const [name, value] of Object.entries(headers)) {
        validateHeaderName(name);
        validateHeaderValue(name, value);
      }
      pool.dispatch(
        {
          origin,
          path: url.pathname + url.search,
          method: request.method as 'POST',
          headers,
          body: request.body === undefined ? null : Buffer.from(request.body, 'utf8'),
        },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      failWith(error);
    }
  });
}

/**
 * The handler, each callback's own throw turned into the request's failure: a throw inside undici's
 * parser would otherwise leave the promise pending forever, and a run that drains so ends silently.
 */
function guarded(handler: LegacyHandler, failWith: (error: unknown) => void): LegacyHandler {
  const safely =
    <A extends unknown[], R>(call: (...args: A) => R, fallback: R) =>
    (...args: A): R => {
      try {
        return call(...args);
      } catch (error) {
        failWith(error);
        return fallback;
      }
    };
  return {
    onConnect: safely(handler.onConnect, undefined),
    onHeaders: safely(handler.onHeaders, false),
    onData: safely(handler.onData, false),
    onComplete: safely(handler.onComplete, undefined),
    onError: safely(handler.onError, undefined),
  };
}

/** undici's own handler interface (what its request API implements), which every dispatcher calls directly. */
interface LegacyHandler {
  onConnect(abort: (reason: Error) => void): void;
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(trailers: unknown): void;
  onError(error: unknown): void;
}

/** The answer's headers, names lower-cased, repeats joined with ", " (as undici's parseHeaders and flattenHeaders made them). */
function headersOf(raw: readonly Buffer[]): Record<string, string> {
  // A plain object filled in place (a null-prototype one copied at the end cost twice as much, per answer).
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1').toLowerCase();
    const value = (raw[i + 1] as Buffer).toString('latin1');
    const joined = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
    // An answer may name a header __proto__: an own property, as any other (assignment would set the prototype).
    if (name === '__proto__') Object.defineProperty(headers, name, { value: joined, enumerable: true, writable: true, configurable: true });
    else headers[name] = joined;
  }
  return headers;
}

/** The body as UTF-8 text, a leading byte-order mark dropped (as undici's body.text() does). */
function bodyText(chunks: readonly Buffer[], length: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

class TimeoutError extends PlantstoreError {
  override readonly name = 'TimeoutError';

  constructor(message: string) {
    super('timeout', message);
  }
}

/** The answer was larger than the client reads (--max-answer-bytes, or headers over MAX_HEADER_BYTES). */
export class AnswerTooLargeError extends PlantstoreError {
  override readonly name = 'AnswerTooLargeError';

  constructor(message: string) {
    super('answerTooLarge', message);
  }
}

/** A request the HTTP client refused to put on the wire; the runner skips such a case. */
export class UnsendableRequestError extends PlantstoreError {
  override readonly name = 'UnsendableRequestError';

  constructor(message: string) {
    super('unsendable', message);
  }
}
