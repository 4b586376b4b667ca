/** What the request-case generators produce and take: plain data shared by every family. */
import type fc from 'fast-check';
import type { JsonValue } from '../json-value.js';

export interface RequestCase {
  readonly kind: 'valid' | 'invalid';
  /** What it breaks, e.g. "body: missing required property 'id'", "auth: no Authorization header"; absent for valid cases. */
  readonly breaks?: string;
  readonly target: 'body' | 'content-type' | 'auth' | 'parameter';
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Exact bytes to send. */
  readonly body?: string;
  /** The value behind body when it is JSON (valid cases always, when the operation takes a JSON body). */
  readonly payload?: JsonValue;
}

export interface CaseContext {
  /** Bearer token for valid requests; DEFAULT_TOKEN when absent, undefined or empty. */
  readonly token?: string | undefined;
  /** The server refuses tokens it does not know: send a bogus one as an invalid case. */
  readonly tokensValidated?: boolean;
  /** Credentials beyond the bearer token the run was given, as the "$VARIABLE"s cases carry (contracts/client/secrets.ts). */
  readonly credentials?: GivenCredentials;
  /** Valid bodies sometimes carry undeclared properties where the schema allows them. Default true. */
  readonly extraProperties?: boolean;
}

export interface GivenCredentials {
  /** What follows "Basic " in valid requests (e.g. "$BASIC_AUTH"); absent: no basic credentials. */
  readonly basic?: string;
  /** By API key scheme (its key in components.securitySchemes): the value valid requests carry. */
  readonly apiKeys: Readonly<Record<string, string>>;
  /** Header names (lower case) the user's --header flags send: they satisfy the schemes carried in them. */
  readonly headers: readonly string[];
}

/** A kind of invalid request; `breaks` is the family's label (a case's own label may add detail in parentheses). */
export interface CaseFamily {
  readonly breaks: string;
  readonly target: RequestCase['target'];
  readonly arbitrary: fc.Arbitrary<RequestCase>;
}

export const DEFAULT_TOKEN = 'plantstore-conformance-token';
