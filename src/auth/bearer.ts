import { createHash, timingSafeEqual } from 'node:crypto';
import type { IHttpOperation } from '@stoplight/types';
import { ErrorCode, failure, type Failure } from '../errors/failure.js';
import { registeredScheme } from './credential-names.js';

export type Credentials =
  /** `token` is undefined when the operation needs no credentials. */
  | { readonly ok: true; readonly token: string | undefined }
  | { readonly ok: false; readonly failure: Failure };

export type CredentialCheck = (authorization: string | undefined) => Credentials;

/** RFC 6750 §3: the challenge a refused request carries. */
const CHALLENGE = 'Bearer realm="plantstore"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="plantstore", error="invalid_token"';

/**
 * Builds the bearer check of one operation from its security requirements. With no tokens
 * configured any non-empty bearer token is accepted (a stand-in has no issuer to ask); with
 * tokens configured only those are.
 */
export function compileCredentialCheck(operation: IHttpOperation, tokens: readonly string[]): CredentialCheck {
  if (!requiresBearer(operation)) return () => ({ ok: true, token: undefined });
  const known = tokens.map(digest);
  return (authorization) => {
    if (authorization === undefined) {
      return refuse('missing Authorization header; send "Authorization: Bearer <token>"', CHALLENGE);
    }
    const space = authorization.indexOf(' ');
    const scheme = space === -1 ? authorization : authorization.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') {
      // Name the scheme only when it is a registered one: any other first word may be the token itself.
      const registered = space === -1 ? undefined : registeredScheme(scheme);
      const named = registered !== undefined ? ` is "${registered}"; this API uses Bearer` : ' is not "Bearer <token>"';
      return refuse(`the Authorization header${named}`, CHALLENGE);
    }
    const token = space === -1 ? '' : authorization.slice(space + 1).trim();
    if (token === '') return refuse('the bearer token is empty', INVALID_TOKEN_CHALLENGE);
    if (known.length > 0 && !isKnown(digest(token), known)) {
      return refuse('the bearer token is not one this server accepts', INVALID_TOKEN_CHALLENGE);
    }
    return { ok: true, token };
  };
}

/**
 * Whether every way to satisfy the operation's security includes HTTP bearer. An operation with
 * no requirement, or with an empty alternative ({}), is open. Schemes other than bearer are not
 * checked by the stand-in (documented in the README).
 */
export function requiresBearer(operation: IHttpOperation): boolean {
  const alternatives = operation.security ?? [];
  if (alternatives.length === 0) return false;
  return alternatives.every(
    (schemes) => schemes.length > 0 && schemes.some((scheme) => scheme.type === 'http' && scheme.scheme.toLowerCase() === 'bearer'),
  );
}

function refuse(message: string, challenge: string): Credentials {
  return { ok: false, failure: failure(ErrorCode.unauthorized, message, { 'www-authenticate': challenge }) };
}

/** Digests have one length, so timingSafeEqual can compare tokens of any length in constant time. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function isKnown(candidate: Buffer, known: readonly Buffer[]): boolean {
  let found = false;
  // No early exit: the time taken does not tell which token, or how many, matched.
  for (const token of known) found = timingSafeEqual(candidate, token) || found;
  return found;
}
