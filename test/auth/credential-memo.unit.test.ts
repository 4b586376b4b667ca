/**
 * A connection's accepted credential is not digested again (credential-check.ts, KnownCredentials):
 * a keep-alive client sends the same one on every request. What it may never do: accept another
 * credential, accept one on a connection that did not present it, or carry over to a check of
 * other tokens (the control site's admin token).
 */
import type { IHttpOperation } from '@stoplight/types';
import { afterEach, describe, expect, it, vi } from 'vitest';

const digests = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    hash: (...args: Parameters<typeof crypto.hash>) => {
      digests.count += 1;
      return crypto.hash(...args);
    },
  };
});

const { compileCredentialCheck } = await import('../../src/auth/credential-check.js');

type Scheme = NonNullable<IHttpOperation['security']>[number][number];
const BEARER = { id: 'b', key: 'bearerAuth', type: 'http', scheme: 'bearer' } as Scheme;
const BASIC = { id: 'c', key: 'basicAuth', type: 'http', scheme: 'basic' } as Scheme;
const HEADER_KEY = { id: 'h', key: 'apiKey', type: 'apiKey', in: 'header', name: 'X-API-Key' } as Scheme;

function checkOf(security: Scheme[][], tokens: string[]) {
  return compileCredentialCheck({ id: 'op', method: 'post', path: '/things', responses: [], security } as unknown as IHttpOperation, tokens);
}

afterEach(() => {
  digests.count = 0;
});

describe('a connection’s accepted credential', () => {
  it('is digested once for all the requests of its connection, each request still checked', () => {
    const check = checkOf([[BEARER]], ['s3cret', 'other']);
    const connection = {};
    const before = digests.count;
    for (let i = 0; i < 50; i++) expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '', connection }).ok).toBe(true);
    expect(digests.count - before).toBe(1);
    expect(check({ headers: { authorization: 'Bearer s3cre' }, query: '', connection }).ok).toBe(false);
    expect(check({ headers: { authorization: 'Bearer s3cretx' }, query: '', connection }).ok).toBe(false);
    expect(check({ headers: {}, query: '', connection }).ok).toBe(false);
    expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '', connection }).ok).toBe(true);
  });

  it('is the connection’s own: another connection, or none, is checked afresh', () => {
    const check = checkOf([[BEARER]], ['s3cret']);
    const first = {};
    expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '', connection: first }).ok).toBe(true);
    const before = digests.count;
    expect(check({ headers: { authorization: 'Bearer wrong' }, query: '', connection: {} }).ok).toBe(false);
    expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '', connection: {} }).ok).toBe(true);
    expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '' }).ok).toBe(true);
    expect(check({ headers: { authorization: 'Bearer s3cret' }, query: '' }).ok).toBe(true);
    expect(digests.count - before).toBe(4);
  });

  it('opens nothing a check of other tokens guards (the control site’s admin token)', () => {
    const api = checkOf([[BEARER]], ['user-token']);
    const control = checkOf([[BEARER]], ['admin-token']);
    const connection = {};
    expect(api({ headers: { authorization: 'Bearer user-token' }, query: '', connection }).ok).toBe(true);
    expect(control({ headers: { authorization: 'Bearer user-token' }, query: '', connection }).ok).toBe(false);
    expect(control({ headers: { authorization: 'Bearer admin-token' }, query: '', connection }).ok).toBe(true);
    expect(api({ headers: { authorization: 'Bearer admin-token' }, query: '', connection }).ok).toBe(false);
  });

  it('works the same for Basic and API keys', () => {
    const basic = checkOf([[BASIC]], ['u:pw']);
    const key = checkOf([[HEADER_KEY]], ['k3y']);
    const connection = {};
    const encoded = `Basic ${Buffer.from('u:pw').toString('base64')}`;
    const before = digests.count;
    for (let i = 0; i < 5; i++) {
      expect(basic({ headers: { authorization: encoded }, query: '', connection }).ok).toBe(true);
      expect(key({ headers: { 'x-api-key': 'k3y' }, query: '', connection }).ok).toBe(true);
    }
    expect(digests.count - before).toBe(2);
    expect(basic({ headers: { authorization: `Basic ${Buffer.from('u:other').toString('base64')}` }, query: '', connection }).ok).toBe(false);
    expect(key({ headers: { 'x-api-key': 'k3y!' }, query: '', connection }).ok).toBe(false);
  });
});
