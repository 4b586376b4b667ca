import type { IncomingHttpHeaders } from 'node:http';

/**
 * CORS for a browser app served from another origin (a dev server on localhost:5173, say).
 * The origin is echoed rather than "*" so requests made with credentials work too.
 */
// Link and Plantstore-Next-Cursor: a browser app pages the control API's plant list with them.
const EXPOSED = 'WWW-Authenticate, Allow, Content-Length, Retry-After, Link, Plantstore-Next-Cursor';
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** Headers every answer to a cross-origin request carries. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED,
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
