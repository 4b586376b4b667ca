/**
 * The tokens the stand-in issued at sign-up and log-in (docs/sign-in.md): each names the user it
 * was issued to (the tenant, collection and key of the stored user). A token is kept only as its
 * digest, so no heap dump, log or journal holds one; the most recent MAX_TOKENS are kept, the
 * oldest forgotten first, so a client signing in in a loop cannot grow memory without bound.
 * Tokens live in this process only: after a restart a client signs in again, as after a real
 * server's session expiry.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IHttpOperation } from '@stoplight/types';
import { headerText } from '../core/http/headers.js';
import { securityOf } from '../core/openapi/security.js';
import { failure } from '../core/errors.js';
import type { CredentialCheck, CredentialSource, Credentials } from './credential-check.js';

export const MAX_TOKENS = 10_000;

/** Whom a token was issued to. */
export interface IssuedUser {
  readonly tenant: string;
  readonly collection: string;
  readonly key: bigint | string;
}

/**
 * Where tokens are kept: this process (a Map, answered at once) or the shared store (Redis, so
 * every replica honours a token any of them issued: src/auth/shared-issued-tokens.ts). A store
 * that fails rejects; the callers answer its 503.
 */
export interface IssuedTokens {
  /** A new random token for `user`, kept before it is returned. */
  issue(user: IssuedUser): string | Promise<string>;
  /** The user a token was issued to, or undefined. */
  find(token: string): IssuedUser | undefined | Promise<IssuedUser | undefined>;
}

export interface LocalIssuedTokens extends IssuedTokens {
  issue(user: IssuedUser): string;
  find(token: string): IssuedUser | undefined;
  readonly size: number;
}

export function createIssuedTokens(max: number = MAX_TOKENS): LocalIssuedTokens {
  const byDigest = new Map<string, IssuedUser>();
  return {
    issue(user) {
      const token = randomBytes(32).toString('base64url');
      byDigest.set(digest(token), user);
      // A Map iterates in insertion order: the first key is the oldest token.
      while (byDigest.size > max) byDigest.delete(byDigest.keys().next().value as string);
      return token;
    },
    find: (token) => byDigest.get(digest(token)),
    get size() {
      return byDigest.size;
    },
  };
}

/** What is kept of a token: its sha-256, never the token. */
export function digest(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * The credential a request presents in Authorization: the word after the scheme (`Bearer t`,
 * `Token t`), or the whole value when it has no scheme word.
 */
export function presentedToken(headers: { readonly authorization?: string | string[] | undefined }): string | undefined {
  const authorization = headerText(headers.authorization)?.trim();
  if (authorization === undefined || authorization === '') return undefined;
  const space = authorization.indexOf(' ');
  const token = space === -1 ? authorization : authorization.slice(space + 1).trim();
  return token === '' ? undefined : token;
}

/**
 * Whether an operation's credential is the session a sign-in issues: every alternative of its
 * security has a bearer scheme or an API key in Authorization (`Authorization: Token <t>`).
 */
export function takesIssuedToken(operation: IHttpOperation): boolean {
  const security = securityOf(operation);
  if (security.open) return false;
  return security.alternatives.every((alternative) =>
    alternative.some(
      (scheme) => scheme.type === 'bearer' || (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization'),
    ),
  );
}

/** A credential check that may wait for the shared store (the issued tokens kept in Redis). */
export type SessionCheck = (request: CredentialSource) => Credentials | Promise<Credentials>;

/**
 * An operation's credential check where the document signs users in: an issued token is honoured
 * (whatever --token lists); any other token passes only the configured ones. Without a sign-in,
 * or for an operation whose credential is no session (basic, another API key), `check` as it was:
 * no lookup, so a document without sign-in never waits for the store.
 */
export function honourIssuedTokens(
  check: CredentialCheck,
  operation: IHttpOperation,
  tokens: readonly string[],
  issued: IssuedTokens | undefined,
): SessionCheck {
  if (issued === undefined || !takesIssuedToken(operation)) return check;
  const configured = tokens.map((token) => hash('sha256', token, 'buffer'));
  const decide = (request: CredentialSource, token: string | undefined, user: IssuedUser | undefined): Credentials => {
    if (token !== undefined && user !== undefined) return honoured(token, user);
    const verdict = check(request);
    if (!verdict.ok || token === undefined || isConfigured(token, configured)) return verdict;
    const bearer = /^\s*bearer\s/i.test(headerText(request.headers.authorization) ?? '');
    return {
      ok: false,
      failure: failure(
        'unauthorized',
        'the token is not one this server issued; sign up or log in to get one',
        bearer ? { 'www-authenticate': 'Bearer realm="plantstore", error="invalid_token"' } : undefined,
      ),
    };
  };
  return (request: CredentialSource) => {
    const token = presentedToken(request.headers);
    const user = token === undefined ? undefined : issued.find(token);
    return user instanceof Promise ? user.then((found) => decide(request, token, found)) : decide(request, token, user);
  };
}

/** Credentials honoured for an issued token, naming its user: the tenant then needs no second lookup. */
type Honoured = Extract<Credentials, { ok: true }> & { readonly issuedTo: IssuedUser };

function honoured(token: string, user: IssuedUser): Honoured {
  return { ok: true, token, issuedTo: user };
}

/** The user the credentials were honoured for, when an issued token passed them. */
export function issuedUserOf(credentials: Extract<Credentials, { ok: true }>): IssuedUser | undefined {
  return 'issuedTo' in credentials ? (credentials as Honoured).issuedTo : undefined;
}

function isConfigured(token: string, configured: readonly Buffer[]): boolean {
  const candidate = hash('sha256', token, 'buffer');
  let found = false;
  for (const known of configured) found = timingSafeEqual(candidate, known) || found;
  return found;
}
