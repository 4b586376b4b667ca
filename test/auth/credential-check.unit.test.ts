/** Serve enforces each kind of scheme the document declares, alone and in alternatives. */
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { compileCredentialCheck } from '../../src/auth/credential-check.js';

type Scheme = NonNullable<IHttpOperation['security']>[number][number];
const BEARER = { id: 'b', key: 'bearerAuth', type: 'http', scheme: 'bearer' } as Scheme;
const BASIC = { id: 'c', key: 'basicAuth', type: 'http', scheme: 'basic' } as Scheme;
const HEADER_KEY = { id: 'h', key: 'apiKey', type: 'apiKey', in: 'header', name: 'X-API-Key' } as Scheme;
const QUERY_KEY = { id: 'q', key: 'queryKey', type: 'apiKey', in: 'query', name: 'api_key' } as Scheme;
const COOKIE_KEY = { id: 'k', key: 'cookieKey', type: 'apiKey', in: 'cookie', name: 'session' } as Scheme;

function checkOf(security: Scheme[][], tokens: string[] = []) {
  const operation = { id: 'op', method: 'post', path: '/things', responses: [], security } as unknown as IHttpOperation;
  const check = compileCredentialCheck(operation, tokens);
  return (headers: Record<string, string>, query = '') => check({ headers, query });
}

describe('compileCredentialCheck', () => {
  it('apiKey in a header, the query or a cookie: any non-empty value', () => {
    expect(checkOf([[HEADER_KEY]])({ 'x-api-key': 'k' }).ok).toBe(true);
    expect(checkOf([[HEADER_KEY]])({ 'x-api-key': ' ' }).ok).toBe(false);
    expect(checkOf([[QUERY_KEY]])({}, 'api_key=k').ok).toBe(true);
    expect(checkOf([[QUERY_KEY]])({}, 'other=k').ok).toBe(false);
    expect(checkOf([[COOKIE_KEY]])({ cookie: 'a=1; session=s' }).ok).toBe(true);
    const refused = checkOf([[HEADER_KEY]])({});
    expect(refused.ok ? '' : refused.failure.message).toBe('missing API key; send it in the X-API-Key header (apiKey X-API-Key (header))');
  });

  it('basic: base64 of user:password, with a Basic challenge', () => {
    expect(checkOf([[BASIC]])({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }).ok).toBe(true);
    const refused = checkOf([[BASIC]])({ authorization: 'Basic nonsense!' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.failure.headers?.['www-authenticate']).toBe('Basic realm="plantstore", charset="UTF-8"');
  });

  it('bearer or apiKey: either opens it; neither is refused with the reasons of both and the Bearer challenge', () => {
    const check = checkOf([[BEARER], [HEADER_KEY]], ['s3cret']);
    expect(check({ authorization: 'Bearer s3cret' })).toEqual({ ok: true, token: 's3cret' });
    // Configured tokens restrict the API key too (they once restricted bearer only).
    expect(check({ 'x-api-key': 's3cret' })).toEqual({ ok: true, token: undefined });
    expect(check({ 'x-api-key': 'anything' }).ok).toBe(false);
    const refused = check({ authorization: 'Bearer wrong' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.failure.message).toBe(
        'no accepted credentials: the bearer token is not one this server accepts; or missing API key; send it in the X-API-Key header (apiKey X-API-Key (header))',
      );
      expect(refused.failure.headers?.['www-authenticate']).toBe('Bearer realm="plantstore", error="invalid_token"');
    }
  });

  it('bearer and apiKey: both are needed', () => {
    const check = checkOf([[BEARER, HEADER_KEY]]);
    expect(check({ authorization: 'Bearer t' }).ok).toBe(false);
    expect(check({ 'x-api-key': 'k' }).ok).toBe(false);
    expect(check({ authorization: 'Bearer t', 'x-api-key': 'k' })).toEqual({ ok: true, token: 't' });
  });

  it('an empty alternative makes the operation open', () => {
    expect(checkOf([[BEARER], []])({}).ok).toBe(true);
  });
});
