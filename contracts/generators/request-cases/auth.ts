/** Credential families: no token, an empty one, the wrong scheme, and (when the target checks tokens) an unknown one. */
import fc from 'fast-check';
import type { Operation } from '../../../src/document/load-document.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import { family, tokenOf, type Base } from './base.js';
import { acceptsBasic } from './operation.js';
import type { CaseContext, CaseFamily, RequestCase } from './types.js';

export function authFamilies(base: Base, operation: Operation, context: CaseContext): CaseFamily[] {
  const token = tokenOf(context);
  const withAuth = (breaks: string, authorization: fc.Arbitrary<string | undefined>): CaseFamily => {
    const payload: fc.Arbitrary<JsonValue | undefined> = base.body?.payload ?? fc.constant(undefined);
    const arbitrary = fc.tuple(base.path, payload, authorization).map(([path, value, auth]): RequestCase => {
      const headers: Record<string, string> = { ...base.headers };
      delete headers['authorization'];
      if (auth !== undefined) headers['authorization'] = auth;
      return value === undefined
        ? { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers }
        : { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers, body: toJsonText(value), payload: value };
    });
    return family(breaks, 'auth', arbitrary);
  };
  const families = [
    withAuth('auth: no Authorization header', fc.constant(undefined)),
    withAuth("auth: empty bearer token ('Bearer ')", fc.constant('Bearer ')),
    withAuth("auth: scheme without a token ('Bearer')", fc.constant('Bearer')),
  ];
  if (!acceptsBasic(operation)) families.splice(1, 0, withAuth('auth: Basic scheme instead of Bearer', fc.constant('Basic dXNlcjpwYXNz')));
  if (context.tokensValidated === true) {
    const bogus = fc.oneof(fc.constantFrom('bogus-token', `${token}x`, token.slice(0, -1) || 'x'), fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/)).filter((t) => t !== token);
    families.push(withAuth('auth: unknown bearer token', bogus.map((t) => `Bearer ${t}`)));
  }
  return families;
}
