/**
 * The start banner's account of credentials: for each scheme the document declares, what a request
 * must carry, what is accepted (configured tokens, or any non-empty value) and whether a refusal
 * carries WWW-Authenticate (HTTP schemes only); then the refusal's status. Never a token.
 */
import { failure, statusOf } from '../core/errors.js';
import { declaredStatuses, type Operation } from '../core/openapi/operation.js';
import { describeScheme, schemeKey, securityOf, type SecurityScheme } from '../core/openapi/security.js';

export function authLines(operations: readonly Operation[], tokenCount: number, authStatus: number | undefined): string[] {
  const secured = operations.filter((operation) => !securityOf(operation).open);
  const schemes = new Map<string, SecurityScheme>();
  for (const operation of secured) for (const scheme of securityOf(operation).alternatives.flat()) schemes.set(schemeKey(scheme), scheme);
  const configured = tokenCount > 0;
  const tokens = configured
    ? `tokens: ${tokenCount} configured; other credentials are refused (as bearer tokens, API keys, Basic user:password or password)`
    : 'tokens: none configured, so ANY non-empty credential is accepted (use --token to restrict)';
  if (schemes.size === 0) return [tokens, 'auth: no operation is secured'];
  const statuses = [...new Set(secured.map((operation) => statusOf(failure('unauthorized', ''), declaredStatuses(operation), authStatus)))];
  return [
    tokens,
    'auth, per scheme:',
    ...[...schemes.values()].map((scheme) => `  ${describeScheme(scheme)}: ${schemeLine(scheme, configured)}`),
    `refused credentials: HTTP ${statuses.join(' or ')}${statuses.length > 1 ? ' (as each operation declares)' : ''}, in the error body the operation declares`,
  ];
}

const NO_CHALLENGE = 'no WWW-Authenticate (not an HTTP scheme)';

function schemeLine(scheme: SecurityScheme, configured: boolean): string {
  switch (scheme.type) {
    case 'bearer':
      return `Authorization: Bearer <token>, ${configured ? 'a configured token' : 'any non-empty token'}; refusals carry WWW-Authenticate: Bearer`;
    case 'basic':
      return `Authorization: Basic <base64 of user:password>, ${
        configured ? 'where a configured token is that user:password, or the password (any user)' : 'any user and password'
      }; refusals carry WWW-Authenticate: Basic`;
    case 'http':
      return `Authorization: ${scheme.scheme} <credentials>, any non-empty (tokens cannot be compared to them); no WWW-Authenticate`;
    case 'apiKey': {
      const key = configured ? 'a configured token' : 'any non-empty key';
      const carried =
        scheme.in === 'header'
          ? `${scheme.name}: ${scheme.prefix ?? ''}<key>${scheme.prefix === undefined ? '' : ` (the "${scheme.prefix.trimEnd()}" prefix is required)`}`
          : scheme.in === 'query'
            ? `?${scheme.name}=<key>`
            : `Cookie: ${scheme.name}=<key>`;
      return `${carried}, ${key}; ${NO_CHALLENGE}`;
    }
    case 'mutualTLS':
      return 'not checked (plain HTTP carries no client certificate)';
  }
}
