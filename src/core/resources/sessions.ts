/**
 * How the document's sessions end, read once for serve and verify (docs/sign-in.md, "Sessions
 * end"): the operation that logs out (a secured one without path parameters and without a success
 * body to speak of, named for ending a session) and the lifetime an issuing answer declares
 * (`expires_in` seconds, the OAuth 2 token-response convention; also `expiresIn`).
 */
import type { Operation } from '../openapi/load-document.js';
import { isSuccess } from '../openapi/operation.js';
import { securityOf } from '../openapi/security.js';
import { objectShape } from '../schema/properties.js';
import { typeOf } from '../schema/types.js';
import { jsonSuccessSchema } from './responses.js';

/** A path's last segment that says the session ends: /logout, /log-out, /signout, /users/sign_out. */
const LOG_OUT_SEGMENT = /^(log|sign)[-_]?out$/i;
/** A DELETE of these ends the session: /session, /sessions/current, /auth/session. */
const SESSION_PATH = /(^|\/)(session|sessions\/current|sessions\/me)$/i;
/** An operationId that says so: logout, logOut, signOut, userLogout, logoutUser. */
const LOG_OUT_ID = /(log|sign)[-_]?out/i;
/** A lifetime's property: `expires_in` (OAuth 2, RFC 6749 §5.1) or `expiresIn`. */
const EXPIRES_IN = /^expires_?in$/i;

/** Whether a property names a token's lifetime in seconds: serve reads the answer's schema by it, verify the answer. */
export function isLifetimeName(name: string): boolean {
  return EXPIRES_IN.test(name);
}
/** Where an issuing answer declares `expires_in` and gives no example of it: an hour, OAuth servers' usual. */
export const DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * The document's log-out: a secured operation (taking the session a sign-in issues), without path
 * parameters, whose success answer is empty or a few scalars (`{"message": "…"}`), named for ending a
 * session by its path or its operationId. The first such one; undefined when there is none.
 */
export function logOutOf(operations: readonly Operation[]): Operation | undefined {
  return operations.find((operation) => endsSession(operation) && takesSession(operation) && !answersSomething(operation));
}

function endsSession(operation: Operation): boolean {
  if (operation.path.includes('{')) return false;
  const method = operation.method.toLowerCase();
  const last = operation.path.replace(/\/+$/, '').split('/').at(-1) ?? '';
  if (method !== 'get' && LOG_OUT_SEGMENT.test(last)) return true;
  if (method === 'delete' && SESSION_PATH.test(operation.path.replace(/\/+$/, ''))) return true;
  return (method === 'post' || method === 'delete') && LOG_OUT_ID.test(operation.iid ?? '');
}

/** Secured by a bearer token or an API key in Authorization: what a sign-in's token is presented as. */
function takesSession(operation: Operation): boolean {
  const security = securityOf(operation);
  if (security.open) return false;
  return security.alternatives.some((alternative) =>
    alternative.some(
      (scheme) => scheme.type === 'bearer' || (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization'),
    ),
  );
}

/** A success answer with a body to speak of: an object holding an object or an array, or anything not an object. */
function answersSomething(operation: Operation): boolean {
  if (!operation.responses.some((response) => isSuccess(Number(response.code)))) return false;
  const schema = jsonSuccessSchema(operation);
  if (schema === undefined) return false;
  const type = typeOf(schema);
  if (type !== 'object' && type !== undefined) return true;
  return [...objectShape(schema).properties.values()].some((inner) => {
    const kind = typeOf(inner);
    return kind === 'object' || kind === 'array';
  });
}

/** Where an issuing answer declares the token's lifetime: ['expires_in'], ['session', 'expiresIn']; undefined when it does not. */
export function expiresInPath(schema: unknown, at: readonly string[] = []): readonly string[] | undefined {
  if (at.length > 3) return undefined;
  for (const [name, inner] of objectShape(schema).properties) {
    if (isLifetimeName(name) && (typeOf(inner) === 'integer' || typeOf(inner) === 'number')) return [...at, name];
    if (typeOf(inner) === 'object') {
      const found = expiresInPath(inner, [...at, name]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The lifetime, in seconds, an issuing answer gives: the first positive `expires_in` (or `expiresIn`)
 * through its objects, as expiresInPath reads the schema: `{"user": {…}, "session": {"expires_in": 3600}}`
 * as well as a bare `{"token", "expires_in"}`. verify reads its own session's lifetime by it.
 */
export function lifetimeIn(value: unknown, depth = 0): number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 3) return undefined;
  const entries = Object.entries(value);
  const own = entries.find(([name, inner]) => isLifetimeName(name) && typeof inner === 'number' && inner > 0)?.[1];
  if (typeof own === 'number') return own;
  for (const [, inner] of entries) {
    const found = lifetimeIn(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The lifetime, in seconds, the issuing operation's answer declares: its `expires_in` example (or
 * default) when the document gives one, else an hour; undefined when the answer declares none.
 */
export function declaredLifetime(operation: Operation): number | undefined {
  const schema = jsonSuccessSchema(operation);
  const path = expiresInPath(schema);
  if (path === undefined) return undefined;
  let inner: unknown = schema;
  for (const name of path) inner = objectShape(inner).properties.get(name);
  const own = inner as Readonly<Record<string, unknown>>;
  const examples = Array.isArray(own.examples) ? own.examples : [];
  const content = operation.responses
    .filter((response) => isSuccess(Number(response.code)))
    .flatMap((response) => response.contents ?? [])
    .flatMap((media) => (media.examples ?? []).map((example) => at((example as { value?: unknown }).value, path)));
  const given = [own.example, ...examples, ...content, own.default].find(isLifetime);
  return given ?? DEFAULT_LIFETIME_SECONDS;
}

function isLifetime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 && value <= 10 * 365 * 86_400;
}

function at(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const name of path) here = typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[name] : undefined;
  return here;
}
