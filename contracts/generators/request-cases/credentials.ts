/**
 * What a request carries to satisfy an operation's security, read from the same description the
 * server enforces (src/core/openapi/security.ts). Valid requests satisfy one alternative; invalid
 * auth cases carry credentials that satisfy none.
 */
import { schemeKey, securityOf, type Security, type SecurityScheme } from '../../../src/core/openapi/security.js';
import type { Operation } from '../../../src/core/openapi/operation.js';
import { DEFAULT_TOKEN, type CaseContext } from './types.js';

/** Placeholders for credentials the user cannot give: a stand-in accepts any non-empty value. */
export const DEFAULT_API_KEY = 'plantstore-conformance-key';
export const DEFAULT_BASIC_USER = 'plantstore:conformance';

/** Credentials as they travel: headers, query parameters and cookies. */
export interface Carried {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly cookies: ReadonlyArray<readonly [string, string]>;
}

export const NOTHING: Carried = { headers: {}, query: [], cookies: [] };

/** The bearer token valid requests carry. */
export function tokenOf(context: CaseContext): string {
  return context.token !== undefined && context.token !== '' ? context.token : DEFAULT_TOKEN;
}

/**
 * The alternative valid requests satisfy: the first that takes a bearer token (the one credential
 * the user can give, with --token), else the first. For an open operation, only a bearer-only
 * alternative is used (an optional token still picks the tenant); undefined when nothing is sent.
 */
export function chosenAlternative(security: Security): readonly SecurityScheme[] | undefined {
  const { alternatives } = security;
  if (security.open) return alternatives.find((alternative) => alternative.every((scheme) => scheme.type === 'bearer'));
  return alternatives.find((alternative) => alternative.some((scheme) => scheme.type === 'bearer')) ?? alternatives[0];
}

/** What satisfies every scheme in `schemes`. */
export function credentialsFor(schemes: readonly SecurityScheme[], context: CaseContext): Carried {
  const headers: Record<string, string> = {};
  const query: Array<[string, string]> = [];
  const cookies: Array<[string, string]> = [];
  for (const scheme of schemes) {
    if (scheme.type === 'bearer') headers['authorization'] = `Bearer ${tokenOf(context)}`;
    else if (scheme.type === 'basic') headers['authorization'] = `Basic ${Buffer.from(DEFAULT_BASIC_USER).toString('base64')}`;
    else if (scheme.type === 'http') headers['authorization'] = `${scheme.scheme} ${DEFAULT_API_KEY}`;
    else if (scheme.type === 'apiKey') {
      if (scheme.in === 'header') headers[scheme.name.toLowerCase()] = DEFAULT_API_KEY;
      else if (scheme.in === 'query') query.push([scheme.name, DEFAULT_API_KEY]);
      else cookies.push([scheme.name, DEFAULT_API_KEY]);
    }
  }
  return { headers, query, cookies };
}

/** The credentials valid requests of `operation` carry. */
export function validCredentials(operation: Operation, context: CaseContext): Carried {
  const chosen = chosenAlternative(securityOf(operation));
  return chosen === undefined ? NOTHING : credentialsFor(chosen, context);
}

/** Headers with the credentials' headers and cookies added. */
export function headersWith(headers: Readonly<Record<string, string>>, carried: Carried): Record<string, string> {
  const result: Record<string, string> = { ...headers, ...carried.headers };
  if (carried.cookies.length > 0) result['cookie'] = carried.cookies.map(([name, value]) => `${name}=${value}`).join('; ');
  return result;
}

/** The path with the credentials' query parameters appended. */
export function pathWith(path: string, carried: Carried): string {
  if (carried.query.length === 0) return path;
  const query = carried.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * Whether a request that satisfies exactly the schemes keyed in `satisfied` must be refused: no
 * alternative is covered by them (mutualTLS, which plain HTTP cannot show, counts as covered).
 */
export function refusedWith(security: Security, satisfied: ReadonlySet<string>): boolean {
  if (security.open) return false;
  return !security.alternatives.some((alternative) => alternative.every((scheme) => scheme.type === 'mutualTLS' || satisfied.has(schemeKey(scheme))));
}
