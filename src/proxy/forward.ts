/**
 * Forwards one request to the real implementation with undici: the method, the headers less the
 * hop-by-hop ones (RFC 9110 §7.6.1) and Host, and the body bytes exactly as received — never
 * re-serialized, so an int64 id above 2^53 reaches the server digit for digit (Prism's proxy
 * rounds it).
 */
import { request } from 'undici';

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

export type UpstreamAnswer =
  | { readonly ok: true; readonly status: number; readonly headers: Record<string, string>; readonly body: Buffer }
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
export async function forward(upstream: URL, forwarded: Forwarded, timeoutMs: number): Promise<UpstreamAnswer> {
  const base = upstream.href.replace(/\/$/, '');
  const url = base + forwarded.target;
  // Host is the target's (undici sets it); Content-Length is undici's to write for the bytes sent.
  const headers = endToEnd(forwarded.headers, ['host', 'content-length']);
  try {
    const answer = await request(url, {
      method: forwarded.method as 'GET',
      headers,
      body: forwarded.body.length > 0 ? forwarded.body : null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    return { ok: true, status: answer.statusCode, headers: endToEnd(answer.headers, ['content-length']), body };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { ok: false, reason: `${base} cannot be reached (${error instanceof Error ? error.message : String(error)}${cause})` };
  }
}
