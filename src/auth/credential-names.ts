import type { IHttpOperation } from '@stoplight/types';
import { securityOf } from '../core/openapi/security.js';

/**
 * The IANA HTTP Authentication Scheme Registry (RFC 9110 §16.4), in its own spelling. Only these
 * words are ever shown back from an Authorization header: any other first word may be the
 * credential itself (`Authorization: s3cr3tT0ken`).
 */
const REGISTERED_SCHEMES = [
  'Basic',
  'Bearer',
  'Concealed',
  'Digest',
  'DPoP',
  'GNAP',
  'HOBA',
  'Mutual',
  'Negotiate',
  'OAuth',
  'PrivateToken',
  'SCRAM-SHA-1',
  'SCRAM-SHA-256',
  'vapid',
];
const SCHEME_BY_NAME = new Map(REGISTERED_SCHEMES.map((scheme) => [scheme.toLowerCase(), scheme]));

/** The registered scheme `word` names (any case), in the registry's spelling; undefined for any other word. */
export function registeredScheme(word: string): string | undefined {
  return SCHEME_BY_NAME.get(word.toLowerCase());
}

/** Header and query parameter names (lower case) whose values are credentials. */
export interface CredentialNames {
  readonly headers: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
}

/**
 * Names that carry credentials in most APIs, whatever a document declares. Authorization,
 * Proxy-Authorization, Cookie and Set-Cookie are masked by their own rules (scheme kept, cookie
 * names kept); plantstore-token is the control API's tenant header.
 */
export const WELL_KNOWN_CREDENTIAL_HEADERS = ['x-api-key', 'api-key', 'x-auth-token', 'x-access-token', 'plantstore-token'] as const;
export const WELL_KNOWN_CREDENTIAL_QUERY = ['access_token', 'api_key', 'apikey', 'token', 'key'] as const;

/** The well-known names plus every API key the document declares in a header or query parameter. */
export function credentialNamesOf(operations: readonly IHttpOperation[]): CredentialNames {
  const headers = new Set<string>(WELL_KNOWN_CREDENTIAL_HEADERS);
  const query = new Set<string>(WELL_KNOWN_CREDENTIAL_QUERY);
  for (const operation of operations) {
    for (const scheme of securityOf(operation).alternatives.flat()) {
      // http, oauth2 and openIdConnect credentials travel in Authorization, masked always;
      // cookies' values are all masked.
      if (scheme.type !== 'apiKey') continue;
      if (scheme.in === 'header') headers.add(scheme.name.toLowerCase());
      if (scheme.in === 'query') query.add(scheme.name.toLowerCase());
    }
  }
  return { headers, query };
}

export const WELL_KNOWN_CREDENTIAL_NAMES: CredentialNames = credentialNamesOf([]);
