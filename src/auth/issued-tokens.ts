/**
 * The tokens the stand-in issued at sign-up and log-in (docs/sign-in.md): each names the user it
 * was issued to (the tenant, collection and key of the stored user). A token is kept only as its
 * digest, so no heap dump, log or journal holds one; the most recent MAX_TOKENS are kept, the
 * oldest forgotten first, so a client signing in in a loop cannot grow memory without bound.
 * Tokens live in this process only: after a restart a client signs in again, as after a real
 * server's session expiry. A session ends as a real API's does: at its lifetime's end (when the
 * issuing answer declares `expires_in`, or --token-lifetime is given) or at a log-out; for
 * ENDED_KEPT_MS after, a refusal can say which.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IHttpOperation } from '@stoplight/types';
import { headerText } from '../core/http/headers.js';
import { securityOf } from '../core/openapi/security.js';
import { errorMessage, failure } from '../core/errors.js';
import type { CredentialCheck, CredentialSource, Credentials } from './credential-check.js';

export const MAX_TOKENS = 10_000;
/** How long an ended session is remembered as ended (logged out, expired): then it is forgotten, as a token never issued. */
export const ENDED_KEPT_MS = 15 * 60_000;

/** Whom a token was issued to. */
export interface IssuedUser {
  readonly tenant: string;
  readonly collection: string;
  readonly key: bigint | string;
}

/** Why a token once issued is refused now. */
export type SessionEnd = 'logged-out' | 'expired';

/**
 * Where tokens are kept: this process (a Map, answered at once) or the shared store (Redis, so
 * every replica honours a token any of them issued: src/auth/shared-issued-tokens.ts). A store
 * that fails rejects; the callers answer its 503.
 */
export interface IssuedTokens {
  /** A new random token for `user`, kept before it is returned; it expires after `lifetimeMs` when given. */
  issue(user: IssuedUser, lifetimeMs?: number): string | Promise<string>;
  /** The user a live token was issued to, or undefined (never issued, expired, logged out). */
  find(token: string): IssuedUser | undefined | Promise<IssuedUser | undefined>;
  /** Why a token that is not live was refused, when it is remembered: asked on a refusal only. */
  ended(token: string): SessionEnd | undefined | Promise<SessionEnd | undefined>;
  /** Ends the token's session (a log-out): refused from now on. */
  revoke(token: string): void | Promise<void>;
  /** The user of a live token, ending its session in the same step (a refresh token used up): of two at once, one gets it. */
  take(token: string): IssuedUser | undefined | Promise<IssuedUser | undefined>;
}

export interface LocalIssuedTokens extends IssuedTokens {
  issue(user: IssuedUser, lifetimeMs?: number): string;
  find(token: string): IssuedUser | undefined;
  ended(token: string): SessionEnd | undefined;
  revoke(token: string): void;
  take(token: string): IssuedUser | undefined;
  readonly size: number;
}

interface Kept {
  readonly user: IssuedUser;
  /** When the token stops being honoured (Infinity: never). */
  readonly expiresAt: number;
  /** When it is forgotten altogether (its end no longer said). */
  readonly dropAt: number;
  /** Its place in the order of issue: the bound forgets the oldest first. */
  readonly seq: number;
  /** Its group: tokens of one lifetime, or those logged out, each group in the order it drops them. */
  readonly group: string;
  readonly loggedOut?: true;
}

const LOGGED_OUT_GROUP = 'logged-out';

export function createIssuedTokens(max: number = MAX_TOKENS, now: () => number = Date.now): LocalIssuedTokens {
  const byDigest = new Map<string, Kept>();
  // Within a group, the order of insertion is the order of dropAt: the expired are at the front, dropped
  // without a scan (a Set iterates in insertion order).
  const groups = new Map<string, Set<string>>();
  let issuedCount = 0;
  const live = (kept: Kept | undefined): kept is Kept => kept !== undefined && kept.loggedOut !== true && now() < kept.expiresAt;
  const place = (key: string, kept: Kept) => {
    byDigest.set(key, kept);
    let group = groups.get(kept.group);
    if (group === undefined) groups.set(kept.group, (group = new Set()));
    group.add(key);
  };
  const forget = (key: string) => {
    const kept = byDigest.get(key);
    if (kept === undefined) return;
    byDigest.delete(key);
    groups.get(kept.group)?.delete(key);
  };
  /** The first key of the group whose first token was issued earliest: the oldest kept, near enough. */
  const oldest = (): string | undefined => {
    let found: { key: string; seq: number } | undefined;
    for (const group of groups.values()) {
      const key = group.values().next().value;
      const seq = key === undefined ? undefined : byDigest.get(key)?.seq;
      if (key !== undefined && seq !== undefined && (found === undefined || seq < found.seq)) found = { key, seq };
    }
    return found?.key;
  };
  return {
    issue(user, lifetimeMs) {
      const at = now();
      for (const group of groups.values())
        for (const key of group) {
          if ((byDigest.get(key)?.dropAt ?? 0) > at) break;
          forget(key);
        }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = lifetimeMs === undefined ? Infinity : at + lifetimeMs;
      issuedCount += 1;
      place(digest(token), { user, expiresAt, dropAt: expiresAt + ENDED_KEPT_MS, seq: issuedCount, group: String(lifetimeMs ?? 'lasting') });
      while (byDigest.size > max) forget(oldest() as string);
      return token;
    },
    find(token) {
      const kept = byDigest.get(digest(token));
      return live(kept) ? kept.user : undefined;
    },
    ended(token) {
      const kept = byDigest.get(digest(token));
      if (kept === undefined || now() >= kept.dropAt) return undefined;
      return kept.loggedOut === true ? 'logged-out' : now() >= kept.expiresAt ? 'expired' : undefined;
    },
    revoke(token) {
      const key = digest(token);
      const kept = byDigest.get(key);
      if (kept === undefined || kept.loggedOut === true) return;
      forget(key);
      place(key, { ...kept, dropAt: now() + ENDED_KEPT_MS, group: LOGGED_OUT_GROUP, loggedOut: true });
    },
    take(token) {
      // One synchronous step: no other request runs between the look and the revoke.
      const user = this.find(token);
      if (user !== undefined) this.revoke(token);
      return user;
    },
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
  const refuse = (request: CredentialSource, end: SessionEnd | undefined): Credentials => {
    const bearer = /^\s*bearer\s/i.test(headerText(request.headers.authorization) ?? '');
    return {
      ok: false,
      failure: failure(
        end === undefined ? 'unauthorized' : 'sessionEnded',
        end === undefined
          ? 'the token is not one this server issued; sign up or log in to get one'
          : errorMessage('sessionEnded', end === 'expired' ? 'expired' : 'was logged out'),
        bearer ? { 'www-authenticate': 'Bearer realm="plantstore", error="invalid_token"' } : undefined,
      ),
    };
  };
  const decide = (request: CredentialSource, token: string | undefined, user: IssuedUser | undefined): Credentials | Promise<Credentials> => {
    if (token !== undefined && user !== undefined) return honoured(token, user);
    const verdict = check(request);
    if (!verdict.ok || token === undefined || isConfigured(token, configured)) return verdict;
    // Refused either way: asking why costs nothing on the honoured path.
    const end = issued.ended(token);
    return end instanceof Promise ? end.then((found) => refuse(request, found)) : refuse(request, end);
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
