import type { IncomingHttpHeaders } from 'node:http';

/**
 * CORS for a browser app served from another origin (a dev server on localhost:5173, say).
 * The origin is echoed rather than "*" so requests made with credentials work too.
 */
// Link and Plantstore-Next-Cursor: a browser app pages the control API's plant list with them.
const EXPOSED = ['WWW-Authenticate', 'Allow', 'Content-Length', 'Retry-After', 'Link', 'Plantstore-Next-Cursor', 'Location'];
const EXPOSED_TEXT = EXPOSED.join(', ');
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The headers a browser app may read: ours, and every header the document declares for an answer
 * (X-Total-Count, a rate limit…); without this a cross-origin app sees none of them (Fetch standard).
 */
export function exposedHeaders(declared: Iterable<string>): string {
  const names = new Map(EXPOSED.map((name) => [name.toLowerCase(), name]));
  for (const name of declared) if (TOKEN.test(name) && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  return names.size === EXPOSED.length ? EXPOSED_TEXT : [...names.values()].join(', ');
}
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** Headers every answer to a cross-origin request carries; `exposed` from exposedHeaders. */
export function corsHeaders(origin: string | undefined, exposed: string = EXPOSED_TEXT): Record<string, string> {
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': exposed,
    vary: 'Origin',
  };
}

/** The answer to a preflight for a path with the methods `allow`. */
export function preflightHeaders(headers: IncomingHttpHeaders, allow: readonly string[]): Record<string, string> {
  return {
    ...corsHeaders(headers.origin),
    'access-control-allow-methods': [...allow, 'OPTIONS'].join(', '),
    'access-control-allow-headers': headers['access-control-request-headers'] ?? DEFAULT_ALLOWED_HEADERS,
    'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
