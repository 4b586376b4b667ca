/**
 * What a request carries to satisfy an operation's security, read from the same description the
 * server enforces (src/core/openapi/security.ts). Valid requests satisfy one alternative the run has
 * credentials for; invalid auth cases carry credentials that satisfy none.
 */
import { describeSecurity, schemeKey, securityOf, type Security, type SecurityScheme } from '../../../src/core/openapi/security.js';
import type { Operation } from '../../../src/core/openapi/operation.js';
import { DEFAULT_TOKEN, type CaseContext } from './types.js';

/** Credentials as they travel: headers, query parameters and cookies. */
export interface Carried {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly cookies: ReadonlyArray<readonly [string, string]>;
}

export const NOTHING: Carried = { headers: {}, query: [], cookies: [] };

/** The bearer token valid requests carry ("$TOKEN" when the run was given one, which only the client fills in). */
export function tokenOf(context: CaseContext): string {
  return context.token !== undefined && context.token !== '' ? context.token : DEFAULT_TOKEN;
}

type ApiKeyScheme = Extract<SecurityScheme, { type: 'apiKey' }>;

/**
 * The value the run was given for an API key scheme, by its key or its parameter name; else the
 * run's token (--token, CONTRACT_TOKEN), as `serve --token` accepts it for every scheme.
 */
export function apiKeyOf(scheme: ApiKeyScheme, context: CaseContext): string | undefined {
  const keys = context.credentials?.apiKeys ?? {};
  const given = context.token !== undefined && context.token !== '' ? context.token : undefined;
  return (scheme.key === undefined ? undefined : keys[scheme.key]) ?? keys[scheme.name] ?? given;
}

/** An API key as its scheme carries it: behind its prefix in a header ("Token <key>"), alone elsewhere. */
export function apiKeyValue(scheme: ApiKeyScheme, key: string): string {
  return scheme.in === 'header' && scheme.prefix !== undefined && key !== '' ? `${scheme.prefix}${key}` : key;
}

/**
 * Whether valid requests can satisfy `scheme`: a bearer token always (a fixed test token by default),
 * the others only with credentials the user gave (--auth, or a --header that carries them).
 */
export function canSatisfy(scheme: SecurityScheme, context: CaseContext): boolean {
  const headers = context.credentials?.headers ?? [];
  switch (scheme.type) {
    case 'bearer':
    case 'mutualTLS':
      return true;
    case 'basic':
      return context.credentials?.basic !== undefined || headers.includes('authorization');
    case 'http':
      return headers.includes('authorization');
    case 'apiKey':
      return (
        apiKeyOf(scheme, context) !== undefined ||
        (scheme.in === 'header' && headers.includes(scheme.name.toLowerCase())) ||
        (scheme.in === 'cookie' && headers.includes('cookie'))
      );
  }
}

/**
 * The alternative valid requests satisfy: of those the run has credentials for, the first that
 * takes a bearer token, else the first. For an open operation, only a bearer-only alternative is
 * used (an optional token still picks the tenant); undefined when nothing is sent, or nothing can be.
 */
export function chosenAlternative(security: Security, context: CaseContext = {}): readonly SecurityScheme[] | undefined {
  const { alternatives } = security;
  if (security.open) return alternatives.find((alternative) => alternative.every((scheme) => scheme.type === 'bearer'));
  const possible = alternatives.filter((alternative) => alternative.every((scheme) => canSatisfy(scheme, context)));
  return possible.find((alternative) => alternative.some((scheme) => scheme.type === 'bearer')) ?? possible[0];
}

/**
 * What satisfies every scheme in `schemes` with the run's credentials. A scheme the run cannot
 * satisfy gets nothing (a --header carrying it is added to every request by the runner).
 */
export function credentialsFor(schemes: readonly SecurityScheme[], context: CaseContext): Carried {
  const headers: Record<string, string> = {};
  const query: Array<[string, string]> = [];
  const cookies: Array<[string, string]> = [];
  for (const scheme of schemes) {
    if (scheme.type === 'bearer') headers['authorization'] = `Bearer ${tokenOf(context)}`;
    else if (scheme.type === 'basic' && context.credentials?.basic !== undefined) headers['authorization'] = `Basic ${context.credentials.basic}`;
    else if (scheme.type === 'apiKey') {
      const value = apiKeyOf(scheme, context);
      if (value === undefined) continue;
      if (scheme.in === 'header') headers[scheme.name.toLowerCase()] = apiKeyValue(scheme, value);
      else if (scheme.in === 'query') query.push([scheme.name, value]);
      else cookies.push([scheme.name, value]);
    }
  }
  return { headers, query, cookies };
}

/** The credentials valid requests of `operation` carry (nothing when the run has none that satisfy it: see missingCredentials). */
export function validCredentials(operation: Operation, context: CaseContext): Carried {
  const chosen = chosenAlternative(securityOf(operation), context);
  return chosen === undefined ? NOTHING : credentialsFor(chosen, context);
}

/**
 * Why valid requests of a secured operation cannot be sent, with the flag that would let them;
 * undefined when they can. Never "--token" for a scheme that does not take a bearer token.
 */
export function missingCredentials(operation: Operation, context: CaseContext): string | undefined {
  const security = securityOf(operation);
  if (security.open || chosenAlternative(security, context) !== undefined) return undefined;
  const needs = security.alternatives.map((alternative) =>
    alternative
      .filter((scheme) => !canSatisfy(scheme, context))
      .map(flagFor)
      .join(' and '),
  );
  return `no credentials for ${describeSecurity(security)}: pass ${needs.join(', or ')}`;
}

/** The flag that gives a scheme's credentials, and its environment variable. */
export function flagFor(scheme: SecurityScheme): string {
  switch (scheme.type) {
    case 'basic':
      return `--auth basic:<user>:<password> (or CONTRACT_BASIC_AUTH=<user>:<password>)`;
    case 'apiKey':
      return `--auth apikey:${scheme.key ?? scheme.name}=<key> (or CONTRACT_API_KEY=<key>)`;
    case 'http':
      return `--header 'Authorization: ${scheme.scheme} <credentials>'`;
    default:
      return '--token <token> (or CONTRACT_TOKEN)';
  }
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
