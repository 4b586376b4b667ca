/**
 * An operation's security as both serve and verify read it: one description, so the server and the
 * suite cannot disagree about what a request must carry (they once did, for bearer-or-apiKey).
 * OpenAPI 3: the operation's `security` (or the document's) lists alternatives; a request is
 * authorized when it satisfies every scheme of some alternative. No requirement, or an empty
 * alternative `{}`, makes the operation open.
 */
import type { HttpSecurityScheme, IHttpOperation } from '@stoplight/types';
import { apiKeyPrefix } from './api-key-prefix.js';

/** A scheme as a request satisfies it: by what it carries, and where. */
export type SecurityScheme =
  /** `Authorization: Bearer <token>`: http bearer, and oauth2 / openIdConnect, whose access tokens travel so. */
  | { readonly type: 'bearer'; readonly declared: 'http' | 'oauth2' | 'openIdConnect' }
  /** `Authorization: Basic <base64 of user:password>`. */
  | { readonly type: 'basic' }
  /** Another HTTP authentication scheme (digest, …): `Authorization: <scheme> <credentials>`. */
  | { readonly type: 'http'; readonly scheme: string }
  /** An API key in a header, query parameter or cookie, by its declared name. */
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      /** The scheme's name in components.securitySchemes (what a user names it by, e.g. `--auth apikey:<key>=…`). */
      readonly key?: string;
      /** A header key's leading word and space, e.g. "Token " (api-key-prefix.ts); absent: the key alone. */
      readonly prefix?: string;
    }
  /** Client certificates are the transport's business: plain HTTP carries nothing to check. */
  | { readonly type: 'mutualTLS' };

export interface Security {
  /** True when a request needs no credentials at all. */
  readonly open: boolean;
  /** Each alternative is a set of schemes a request must all satisfy; empty alternatives are left out. */
  readonly alternatives: readonly (readonly SecurityScheme[])[];
}

const cache = new WeakMap<IHttpOperation, Security>();

/** The operation's security; prism has already applied the document's global requirement and any override. */
export function securityOf(operation: IHttpOperation): Security {
  let security = cache.get(operation);
  if (security === undefined) {
    const declared = operation.security ?? [];
    const open = declared.length === 0 || declared.some((alternative) => alternative.length === 0);
    security = { open, alternatives: declared.filter((alternative) => alternative.length > 0).map((alternative) => alternative.map(schemeOf)) };
    cache.set(operation, security);
  }
  return security;
}

function schemeOf(scheme: HttpSecurityScheme): SecurityScheme {
  switch (scheme.type) {
    case 'http': {
      const name = scheme.scheme.toLowerCase();
      return name === 'bearer' ? { type: 'bearer', declared: 'http' } : name === 'basic' ? { type: 'basic' } : { type: 'http', scheme: name };
    }
    case 'oauth2':
    case 'openIdConnect':
      return { type: 'bearer', declared: scheme.type };
    case 'apiKey': {
      const prefix = apiKeyPrefix(scheme);
      return { type: 'apiKey', in: scheme.in, name: scheme.name, ...(scheme.key ? { key: scheme.key } : {}), ...(prefix !== undefined ? { prefix } : {}) };
    }
    default:
      return { type: 'mutualTLS' };
  }
}

/** One scheme's identity: two alternatives naming the same key in the same place ask for the same thing. */
export function schemeKey(scheme: SecurityScheme): string {
  switch (scheme.type) {
    case 'http':
      return `http ${scheme.scheme}`;
    case 'apiKey':
      // Header names are case-insensitive; query and cookie names are not.
      return `apiKey ${scheme.in} ${scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name}`;
    default:
      return scheme.type;
  }
}

/** The scheme in the document's words, for messages and the serve banner: "bearer", "apiKey X-API-Key (header)". */
export function describeScheme(scheme: SecurityScheme): string {
  switch (scheme.type) {
    case 'bearer':
      return scheme.declared === 'http' ? 'bearer' : `${scheme.declared} (bearer token)`;
    case 'http':
      return `http ${scheme.scheme}`;
    case 'apiKey':
      return `apiKey ${scheme.name} (${scheme.in}${scheme.prefix === undefined ? '' : `, "${scheme.prefix}<key>"`})`;
    default:
      return scheme.type;
  }
}

/** "open", "bearer", "bearer or apiKey X-API-Key (header)", "bearer and apiKey …". */
export function describeSecurity(security: Security): string {
  if (security.open) return 'open';
  return security.alternatives.map((alternative) => alternative.map(describeScheme).join(' and ')).join(' or ');
}
