/**
 * Forwards one request to the real implementation with undici: the method, the headers less the
 * hop-by-hop ones (RFC 9110 §7.6.1) and Host, and the body bytes exactly as received — never
 * re-serialized, so an int64 id above 2^53 reaches the server digit for digit (Prism's proxy
 * rounds it). The answer's body is read up to a limit: a larger one is handed back as its first
 * bytes and the rest still unread, so it can be streamed on and never held whole. One deadline
 * bounds the whole exchange, from sending to the answer's last byte, not only each gap.
 */
import { Readable } from 'node:stream';
import { undici } from '../core/http/undici.js';

/** RFC 9110 §7.6.1 (and the older ones still sent): meaningful for one connection only. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export interface Forwarded {
  readonly method: string;
  /** Path and query as the client sent them ('/plants?limit=2'). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

export interface ForwardLimits {
  /** From sending the request to the answer's last byte. */
  readonly timeoutMs: number;
  /** Bytes of the answer's body read whole; past them the rest is left unread. */
  readonly bodyBytes: number;
}

export type UpstreamAnswer =
  | {
      readonly ok: true;
      readonly status: number;
      readonly headers: Record<string, string>;
      /** The whole body, or its first `bodyBytes` and more when `rest` is there. */
      readonly body: Buffer;
      /** The body's bytes after `body`, still unread (pulled as they are consumed); destroy it to drop them. */
      readonly rest?: Readable;
      /** The length the upstream declared (Content-Length), when it did. */
      readonly declaredLength?: number;
    }
  | { readonly ok: false; readonly reason: string };

/** Headers that travel end to end: hop-by-hop ones out, and those the Connection header names. */
export function endToEnd(headers: Readonly<Record<string, string | string[] | undefined>>, drop: readonly string[] = []): Record<string, string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || named.includes(lower) || drop.includes(lower)) continue;
    out[lower] = Array.isArray(value) ? (lower === 'set-cookie' ? value.join('\n') : value.join(', ')) : value;
  }
  return out;
}

/** Sends `forwarded` to `upstream` (an origin, maybe with a base path); never throws. */
export async function forward(upstream: URL, forwarded: Forwarded, { timeoutMs, bodyBytes }: ForwardLimits): Promise<UpstreamAnswer> {
  const base = upstream.href.replace(/\/$/, '');
  const url = base + forwarded.target;
  // Host is the target's (undici sets it); Content-Length is undici's to write for the bytes sent.
  const headers = endToEnd(forwarded.headers, ['host', 'content-length']);
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const { request } = await undici();
    const answer = await request(url, {
      method: forwarded.method as 'GET',
      headers,
      body: forwarded.body.length > 0 ? forwarded.body : null,
      signal: deadline,
    });
    const chunks = answer.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const { head, overflow } = await readUpTo(chunks, bodyBytes);
    const declared = Number(answer.headers['content-length']);
    return {
      ok: true,
      status: answer.statusCode,
      headers: endToEnd(answer.headers, ['content-length']),
      body: head,
      ...(overflow === undefined ? {} : { rest: restOf(overflow, chunks) }),
      ...(Number.isSafeInteger(declared) && declared >= 0 ? { declaredLength: declared } : {}),
    };
  } catch (error) {
    if (deadline.aborted) return { ok: false, reason: `${base} did not send its whole answer within ${timeoutMs} ms (--request-timeout-ms)` };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { ok: false, reason: `${base} cannot be reached (${error instanceof Error ? error.message : String(error)}${cause})` };
  }
}

/** Chunks until the body ends (overflow undefined) or passes `limit` (the bytes past it in `overflow`). */
async function readUpTo(chunks: AsyncIterator<Buffer>, limit: number): Promise<{ head: Buffer; overflow?: Buffer }> {
  const taken: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) return { head: Buffer.concat(taken, size) };
    const chunk = next.value;
    if (size + chunk.length > limit) {
      taken.push(chunk.subarray(0, limit - size));
      return { head: Buffer.concat(taken, limit), overflow: chunk.subarray(limit - size) };
    }
    taken.push(chunk);
    size += chunk.length;
  }
}

/**
 * The bytes after the head: the overflow, then the chunks not read yet, each pulled when the
 * reader wants more (backpressure reaches the upstream). Destroying it closes the upstream's body.
 */
function restOf(overflow: Buffer, chunks: AsyncIterator<Buffer>): Readable {
  let first: Buffer | undefined = overflow;
  return new Readable({
    read() {
      if (first !== undefined) {
        this.push(first);
        first = undefined;
        return;
      }
      chunks.next().then(
        (next) => this.push(next.done === true ? null : next.value),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    destroy(error, callback) {
      Promise.resolve(chunks.return?.()).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}
