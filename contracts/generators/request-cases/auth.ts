/**
 * Credential families: requests that satisfy none of the operation's security alternatives (no
 * credentials, an empty or malformed bearer token, the wrong scheme, part of a required
 * combination, an empty API key, and, when the target checks tokens, an unknown one). Each family
 * says which schemes its request does satisfy, so none is sent that the server should accept.
 */
import { encodedAs } from './body-encoding.js';
import fc from 'fast-check';
import { describeScheme, schemeKey, securityOf, type SecurityScheme } from '../../../src/core/openapi/security.js';
import type { Operation } from '../../../src/core/openapi/operation.js';
import type { JsonValue } from '../json-value.js';
import { family, type Base } from './base.js';
import { apiKeyOf, apiKeyValue, credentialsFor, headersWith, NOTHING, pathWith, refusedWith, tokenOf, type Carried } from './credentials.js';
import type { CaseContext, CaseFamily, RequestCase } from './types.js';

interface Candidate {
  readonly breaks: string;
  readonly carried: fc.Arbitrary<Carried>;
  /** The schemes the request satisfies, by schemeKey. */
  readonly satisfies: readonly string[];
}

export function authFamilies(base: Base, operation: Operation, context: CaseContext): CaseFamily[] {
  const security = securityOf(operation);
  if (security.open) return [];
  const token = tokenOf(context);
  const schemes = security.alternatives.flat();
  const bearer = schemes.some((scheme) => scheme.type === 'bearer');
  const onlyAuthorization = schemes.every((scheme) => scheme.type === 'bearer' || scheme.type === 'basic' || scheme.type === 'http');
  const authorization = (value: string): fc.Arbitrary<Carried> => fc.constant({ ...NOTHING, headers: { authorization: value } });

  const candidates: Candidate[] = [
    { breaks: onlyAuthorization ? 'auth: no Authorization header' : 'auth: no credentials', carried: fc.constant(NOTHING), satisfies: [] },
  ];
  if (bearer) {
    // Filtered out below when Basic is an accepted alternative.
    candidates.push({ breaks: 'auth: Basic scheme instead of Bearer', carried: authorization('Basic dXNlcjpwYXNz'), satisfies: ['basic'] });
    candidates.push(
      { breaks: "auth: empty bearer token ('Bearer ')", carried: authorization('Bearer '), satisfies: [] },
      { breaks: "auth: scheme without a token ('Bearer')", carried: authorization('Bearer'), satisfies: [] },
    );
  }
  // Each API key scheme: sent empty; and, when the target checks keys and the run has a real one, sent wrong.
  const apiKeys = uniqueBy(
    schemes.filter((scheme): scheme is Extract<SecurityScheme, { type: 'apiKey' }> => scheme.type === 'apiKey'),
    schemeKey,
  );
  for (const apiKey of apiKeys) {
    candidates.push({ breaks: `auth: empty API key (${describeScheme(apiKey)})`, carried: fc.constant(apiKeyCarrying(apiKey, '')), satisfies: [] });
    if (context.tokensValidated === true && apiKeyOf(apiKey, context) !== undefined) {
      candidates.push({
        breaks: `auth: wrong API key (${describeScheme(apiKey)})`,
        // Behind the scheme's prefix, so the key itself is what is wrong.
        carried: fc.constantFrom('plantstore-wrong-key', 'x').map((value) => apiKeyCarrying(apiKey, apiKeyValue(apiKey, value))),
        satisfies: [],
      });
    }
  }
  if (schemes.some((scheme) => scheme.type === 'basic') && context.tokensValidated === true && context.credentials?.basic !== undefined) {
    candidates.push({
      breaks: 'auth: wrong basic password',
      carried: authorization(`Basic ${Buffer.from('plantstore-wrong-user:plantstore-wrong-password').toString('base64')}`),
      satisfies: [],
    });
  }
  // A combination (bearer and an API key, …) with one of its schemes left out.
  for (const alternative of security.alternatives) {
    if (alternative.length < 2) continue;
    for (const left of alternative) {
      const rest = alternative.filter((scheme) => scheme !== left);
      candidates.push({
        breaks: `auth: ${describeScheme(left)} missing from a combination`,
        carried: fc.constant(credentialsFor(rest, context)),
        satisfies: rest.map(schemeKey),
      });
    }
  }
  if (bearer && context.tokensValidated === true) {
    const bogus = fc.oneof(fc.constantFrom('bogus-token', `${token}x`, token.slice(0, -1) || 'x'), tokenLike()).filter((t) => t !== token);
    candidates.push({
      breaks: 'auth: unknown bearer token',
      carried: bogus.map((t) => ({ ...NOTHING, headers: { authorization: `Bearer ${t}` } })),
      satisfies: [],
    });
  }
  return candidates.filter((candidate) => refusedWith(security, new Set(candidate.satisfies))).map((candidate) => withCredentials(base, candidate));
}

let tokenLikeStrings: fc.Arbitrary<string> | undefined;
/** Built on first use, once: a stringMatching costs milliseconds to build, and every bearer-secured operation has this family. */
const tokenLike = (): fc.Arbitrary<string> => (tokenLikeStrings ??= fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/));

/** An API key sent where its scheme says, with `value`. */
function apiKeyCarrying(scheme: Extract<SecurityScheme, { type: 'apiKey' }>, value: string): Carried {
  if (scheme.in === 'header') return { ...NOTHING, headers: { [scheme.name.toLowerCase()]: value } };
  if (scheme.in === 'query') return { ...NOTHING, query: [[scheme.name, value]] };
  return { ...NOTHING, cookies: [[scheme.name, value]] };
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && (seen.add(key(item)), true));
}

function withCredentials(base: Base, { breaks, carried }: Candidate): CaseFamily {
  const payload: fc.Arbitrary<JsonValue | undefined> = base.body?.payload ?? fc.constant(undefined);
  const arbitrary = fc.tuple(base.anonymous.path, payload, carried).map(([bare, value, credentials]): RequestCase => {
    const path = pathWith(bare, credentials);
    const headers = headersWith(base.anonymous.headers, credentials);
    return value === undefined
      ? { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers }
      : { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers, body: encodedAs({ headers }, value), payload: value };
  });
  return family(breaks, 'auth', arbitrary);
}
