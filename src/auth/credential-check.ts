/**
 * Serve enforces the security the document declares (src/core/openapi/security.ts): a request is
 * authorized when it satisfies every scheme of some alternative. A stand-in has no issuer to ask,
 * so with no tokens configured any non-empty credential of the declared kind is accepted (a
 * bearer token, Basic user:password, an API key value). Configured tokens restrict every scheme
 * whose credential can be compared: the bearer token; the API key (after its prefix, "Token ");
 * Basic `user:password` when it is a token, or any user whose password is one. Other HTTP schemes
 * (Digest, …) carry nothing comparable and stay "any non-empty". docs/auth.md.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { IHttpOperation } from '@stoplight/types';
import { cookiePairs, headerText } from '../core/http/headers.js';
import { describeScheme, securityOf, type SecurityScheme } from '../core/openapi/security.js';
import { failure, type Failure } from '../core/errors.js';
import { registeredScheme } from './credential-names.js';

export type Credentials =
  /** `token` is the bearer token the request was authorized with; undefined when none was needed or used. */
  { readonly ok: true; readonly token: string | undefined } | { readonly ok: false; readonly failure: Failure };

/** What credentials can travel in: the request's headers and its query text (without "?"). */
export interface CredentialSource {
  readonly headers: IncomingHttpHeaders;
  readonly query: string;
  /** The connection (socket) the request came on: a credential it had accepted is not digested again (KnownCredentials). */
  readonly connection?: object;
}

export type CredentialCheck = (request: CredentialSource) => Credentials;

/** RFC 6750 §3 and RFC 7617 §2: the challenges a refused request carries. */
const CHALLENGE = 'Bearer realm="plantstore"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="plantstore", error="invalid_token"';
const BASIC_CHALLENGE = 'Basic realm="plantstore", charset="UTF-8"';

const OPEN: CredentialCheck = () => ({ ok: true, token: undefined });

/** A scheme's verdict on a request: satisfied (with the bearer token, if it is one), or why not. */
type SchemeVerdict = { readonly ok: true; readonly token?: string } | { readonly ok: false; readonly message: string; readonly challenge?: string };

/** Builds the credential check of one operation from its security requirements (tokens a sign-in issued: issued-tokens.ts). */
export function compileCredentialCheck(operation: IHttpOperation, tokens: readonly string[]): CredentialCheck {
  const security = securityOf(operation);
  if (security.open) return OPEN;
  const known = knownCredentials(tokens);
  const alternatives = security.alternatives.map((alternative) => alternative.map((scheme) => compileScheme(scheme, known)));
  return (request) => {
    const refusals: Array<Extract<SchemeVerdict, { ok: false }>> = [];
    for (const alternative of alternatives) {
      let token: string | undefined;
      let refused: Extract<SchemeVerdict, { ok: false }> | undefined;
      for (const check of alternative) {
        const verdict = check(request);
        if (!verdict.ok) {
          refused = verdict;
          break;
        }
        token ??= verdict.token;
      }
      if (refused === undefined) return { ok: true, token };
      refusals.push(refused);
    }
    return refuse(refusals);
  };
}

/** One alternative's reason, or all of them joined with "or"; every distinct challenge, one per scheme (RFC 9110 §11.6.1). */
function refuse(refusals: ReadonlyArray<Extract<SchemeVerdict, { ok: false }>>): Credentials {
  const message = refusals.length === 1 ? (refusals[0]?.message ?? '') : `no accepted credentials: ${refusals.map((r) => r.message).join('; or ')}`;
  const challenges = [...new Set(refusals.flatMap((r) => (r.challenge === undefined ? [] : [r.challenge])))];
  return { ok: false, failure: failure('unauthorized', message, challenges.length === 0 ? undefined : { 'www-authenticate': challenges.join(', ') }) };
}

function compileScheme(scheme: SecurityScheme, known: KnownCredentials): (request: CredentialSource) => SchemeVerdict {
  switch (scheme.type) {
    case 'bearer':
      return ({ headers, connection }) => checkBearer(headerText(headers.authorization), known, connection);
    case 'basic':
      return ({ headers, connection }) => checkBasic(headerText(headers.authorization), known, connection);
    case 'http':
      return ({ headers }) => checkOtherScheme(headerText(headers.authorization), scheme.scheme);
    case 'apiKey':
      return (request) => checkApiKey(request, scheme, known);
    case 'mutualTLS':
      // A client certificate is checked by TLS, which plain HTTP does not have: nothing to refuse here.
      return () => ({ ok: true });
  }
}

/**
 * The bearer token that names a request's tenant under --isolate-by-token: the one it was authorized
 * with, else any bearer token its Authorization header carries (an operation the document leaves open
 * is isolated too: isolation is the harness's feature, not the document's auth). None: the shared store.
 */
export function isolatingToken(credentials: Extract<Credentials, { ok: true }>, headers: IncomingHttpHeaders): string | undefined {
  if (credentials.token !== undefined) return credentials.token;
  const authorization = headerText(headers.authorization);
  if (authorization === undefined) return undefined;
  const { scheme, credentials: token } = splitAuthorization(authorization);
  return scheme.toLowerCase() === 'bearer' && token !== '' ? token : undefined;
}

/** The Authorization header's scheme word and the rest, trimmed ("" when there is none). */
function splitAuthorization(authorization: string): { readonly scheme: string; readonly credentials: string; readonly spaced: boolean } {
  const space = authorization.indexOf(' ');
  return space === -1
    ? { scheme: authorization, credentials: '', spaced: false }
    : { scheme: authorization.slice(0, space), credentials: authorization.slice(space + 1).trim(), spaced: true };
}

/** Names the scheme only when it is a registered one: any other first word may be the credential itself. */
function wrongScheme(scheme: string, spaced: boolean, wanted: string, form: string): string {
  const registered = spaced ? registeredScheme(scheme) : undefined;
  return `the Authorization header${registered !== undefined ? ` is "${registered}"; this API uses ${wanted}` : ` is not "${form}"`}`;
}

function checkBearer(authorization: string | undefined, known: KnownCredentials, connection: object | undefined): SchemeVerdict {
  if (authorization === undefined) return { ok: false, message: 'missing Authorization header; send "Authorization: Bearer <token>"', challenge: CHALLENGE };
  const { scheme, credentials: token, spaced } = splitAuthorization(authorization);
  if (scheme.toLowerCase() !== 'bearer') return { ok: false, message: wrongScheme(scheme, spaced, 'Bearer', 'Bearer <token>'), challenge: CHALLENGE };
  if (token === '') return { ok: false, message: 'the bearer token is empty', challenge: INVALID_TOKEN_CHALLENGE };
  if (known.restricted && !known.has(token, connection)) {
    return { ok: false, message: 'the bearer token is not one this server accepts', challenge: INVALID_TOKEN_CHALLENGE };
  }
  return { ok: true, token };
}

function checkBasic(authorization: string | undefined, known: KnownCredentials, connection: object | undefined): SchemeVerdict {
  const form = 'Basic <base64 of user:password>';
  if (authorization === undefined) return { ok: false, message: `missing Authorization header; send "Authorization: ${form}"`, challenge: BASIC_CHALLENGE };
  const { scheme, credentials, spaced } = splitAuthorization(authorization);
  if (scheme.toLowerCase() !== 'basic') return { ok: false, message: wrongScheme(scheme, spaced, 'Basic', form), challenge: BASIC_CHALLENGE };
  // RFC 7617 §2: user-id ":" password, base64 (the user-id has no colon; the password may).
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(credentials) ? Buffer.from(credentials, 'base64').toString('utf8') : '';
  if (!decoded.includes(':') || decoded === ':')
    return { ok: false, message: 'the Basic credentials are not base64 of "user:password"', challenge: BASIC_CHALLENGE };
  // A token "user:password" admits that user; a token without a colon is a password any user may send.
  const password = decoded.slice(decoded.indexOf(':') + 1);
  if (known.restricted && !known.has(decoded, connection) && !known.has(password, connection)) {
    return { ok: false, message: 'the Basic user and password are not ones this server accepts', challenge: BASIC_CHALLENGE };
  }
  return { ok: true };
}

function checkOtherScheme(authorization: string | undefined, wanted: string): SchemeVerdict {
  const form = `${wanted} <credentials>`;
  if (authorization === undefined) return { ok: false, message: `missing Authorization header; send "Authorization: ${form}"` };
  const { scheme, credentials, spaced } = splitAuthorization(authorization);
  if (scheme.toLowerCase() !== wanted) return { ok: false, message: wrongScheme(scheme, spaced, registeredScheme(wanted) ?? wanted, form) };
  if (credentials === '') return { ok: false, message: `the ${registeredScheme(wanted) ?? wanted} credentials are empty` };
  return { ok: true };
}

function checkApiKey(
  { headers, query, connection }: CredentialSource,
  scheme: Extract<SecurityScheme, { type: 'apiKey' }>,
  known: KnownCredentials,
): SchemeVerdict {
  const value =
    scheme.in === 'header'
      ? headerText(headers[scheme.name.toLowerCase()])
      : scheme.in === 'query'
        ? query === ''
          ? undefined
          : (new URLSearchParams(query).get(scheme.name) ?? undefined)
        : cookiePairs(headerText(headers.cookie)).find((pair) => pair.name === scheme.name)?.value;
  const where =
    scheme.in === 'header' ? `the ${scheme.name} header` : scheme.in === 'query' ? `the ${scheme.name} query parameter` : `the ${scheme.name} cookie`;
  if (value === undefined) return { ok: false, message: `missing API key; send it in ${where} (${describeScheme(scheme)})` };
  if (value.trim() === '') return { ok: false, message: `the API key in ${where} is empty` };
  const key = scheme.prefix === undefined ? value : withoutPrefix(value, scheme.prefix);
  // The value is never echoed: without its prefix it may be the key itself.
  if (key === undefined)
    return { ok: false, message: `the API key in ${where} does not start with "${scheme.prefix ?? ''}"; send "${scheme.prefix ?? ''}<key>"` };
  if (key === '') return { ok: false, message: `the API key in ${where} is empty after "${scheme.prefix ?? ''}"` };
  if (known.restricted && !known.has(key, connection)) return { ok: false, message: `the API key in ${where} is not one this server accepts` };
  return { ok: true };
}

/** The key after `prefix` ("Token "): its word in any case, then spaces; undefined when the value does not start so. */
function withoutPrefix(value: string, prefix: string): string | undefined {
  const word = prefix.trimEnd();
  const trimmed = value.trimStart();
  if (trimmed.slice(0, word.length).toLowerCase() !== word.toLowerCase()) return undefined;
  const rest = trimmed.slice(word.length);
  if (rest !== '' && !/^[ \t]/.test(rest)) return undefined;
  return rest.trim();
}

/**
 * The configured credentials, kept as sha-256 digests: digests have one length, so timingSafeEqual
 * compares credentials of any length in constant time. A keep-alive client sends the same
 * credential on every request, and digesting it was 6 % of a POST's time: what a connection
 * presented and had accepted is remembered for that connection alone (its socket, weakly), so the
 * plain comparison that finds it again only ever sets a client's credential against its own last one.
 */
interface KnownCredentials {
  /** Whether any are configured: with none, any non-empty credential passes. */
  readonly restricted: boolean;
  has(candidate: string, connection: object | undefined): boolean;
}

function knownCredentials(tokens: readonly string[]): KnownCredentials {
  const digests = tokens.map(digest);
  const accepted = new WeakMap<object, string>();
  return {
    restricted: digests.length > 0,
    has(candidate, connection) {
      if (connection !== undefined && accepted.get(connection) === candidate) return true;
      const found = isKnown(digest(candidate), digests);
      if (found && connection !== undefined) accepted.set(connection, candidate);
      return found;
    },
  };
}

/** One-shot `hash`: half the cost of a Hash object. */
function digest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

function isKnown(candidate: Buffer, known: readonly Buffer[]): boolean {
  let found = false;
  // No early exit: the time taken does not tell which token, or how many, matched.
  for (const token of known) found = timingSafeEqual(candidate, token) || found;
  return found;
}
