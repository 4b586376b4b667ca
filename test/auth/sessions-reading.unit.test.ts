/**
 * How sessions end, read once for serve and verify (src/core/resources/sessions.ts): which
 * operation logs out (by its path or operationId, secured, no path parameters, no success body to
 * speak of), the lifetime an issuing answer declares (`expires_in`), and the issued tokens of one
 * process ending at a log-out or their lifetime, expired ones dropped, the bound kept.
 */
import { describe, expect, it } from 'vitest';
import { createIssuedTokens, ENDED_KEPT_MS } from '../../src/auth/issued-tokens.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { signInOf } from '../../src/core/resources/sign-in.js';
import { declaredLifetime, DEFAULT_LIFETIME_SECONDS, lifetimeIn, logOutOf } from '../../src/core/resources/sessions.js';

type Schema = Record<string, unknown>;
const json = (schema: Schema, example?: unknown) => ({
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});
const BEARER = [{ bearer: [] }];

/** A document with a sign-up, a log-in and `extra` paths; the log-in answers `answer`. */
function documentWith(extra: Record<string, unknown>, answer: Schema = { type: 'object', properties: { token: { type: 'string' } } }, example?: unknown) {
  const credentials = { type: 'object', properties: { email: { type: 'string' }, password: { type: 'string' } } };
  return {
    openapi: '3.0.3',
    info: { title: 'sessions', version: '1' },
    paths: {
      '/login': { post: { operationId: 'logIn', requestBody: json(credentials), responses: { '200': { description: 'in', ...json(answer, example) } } } },
      ...extra,
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}

const noContent = { '204': { description: 'ended' } };
const logOutAt = async (extra: Record<string, unknown>) => {
  const operation = logOutOf((await loadDocument(documentWith(extra))).operations);
  return operation && `${operation.method.toUpperCase()} ${operation.path}`;
};

describe('the log-out operation', () => {
  it.each([
    ['/logout', 'post'],
    ['/log-out', 'post'],
    ['/auth/signout', 'post'],
    ['/users/sign_out', 'delete'],
    ['/session', 'delete'],
    ['/sessions/current', 'delete'],
  ])('%s (%s) logs out', async (path, method) => {
    expect(await logOutAt({ [path]: { [method]: { security: BEARER, responses: noContent } } })).toBe(`${method.toUpperCase()} ${path}`);
  });

  it('is found by its operationId too (signOut), and with a small answer ({"message": …})', async () => {
    const small = { '200': { description: 'ok', ...json({ type: 'object', properties: { message: { type: 'string' }, success: { type: 'boolean' } } }) } };
    expect(await logOutAt({ '/auth/end': { post: { operationId: 'signOut', security: BEARER, responses: small } } })).toBe('POST /auth/end');
    // And the sign-in reading names it.
    const document = await loadDocument(documentWith({ '/logout': { post: { security: BEARER, responses: noContent } } }));
    expect(signInOf(document.operations)?.logOut?.path).toBe('/logout');
  });

  it('is none where the operation is open, has a path parameter, answers something, or is a GET of /session', async () => {
    expect(await logOutAt({ '/logout': { post: { responses: noContent } } })).toBeUndefined();
    expect(
      await logOutAt({
        '/sessions/{id}': {
          delete: { security: BEARER, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: noContent },
        },
      }),
    ).toBeUndefined();
    const list = { '200': { description: 'sessions', ...json({ type: 'object', properties: { sessions: { type: 'array', items: { type: 'string' } } } }) } };
    expect(await logOutAt({ '/logout': { post: { security: BEARER, responses: list } } })).toBeUndefined();
    expect(await logOutAt({ '/session': { get: { security: BEARER, responses: noContent } } })).toBeUndefined();
    expect(await logOutAt({ '/checkout': { post: { operationId: 'checkOut', security: BEARER, responses: noContent } } })).toBeUndefined();
  });
});

describe('a public document: GoTrue (Supabase Auth), cut down', () => {
  it('signs up at /signup (named so: it answers 200), logs in at /token, logs out at /logout, tokens for an hour', async () => {
    const document = await loadDocument(new URL('../fixtures/documents/gotrue-sessions.yaml', import.meta.url).pathname);
    const signIn = signInOf(document.operations);
    expect([signIn?.signUp?.path, signIn?.logIn?.path, signIn?.logOut?.path, signIn?.currentUser?.path]).toEqual(['/signup', '/token', '/logout', '/user']);
    expect(signIn?.logIn && declaredLifetime(signIn.logIn)).toBe(DEFAULT_LIFETIME_SECONDS);
  });
});

describe('the lifetime an issuing answer gives', () => {
  it('is read through every object of the answer, as the schema is read (verify renews its session by it)', () => {
    expect(lifetimeIn({ token: 't', expires_in: 900 })).toBe(900);
    // Supabase's v2 shape: the user first, the session (and its lifetime) after it.
    expect(lifetimeIn({ user: { id: 1, email: 'a@b.c' }, session: { access_token: 't', expiresIn: 3600 } })).toBe(3600);
    expect(lifetimeIn({ user: { id: 1 }, token: 't' })).toBeUndefined();
    expect(lifetimeIn({ expires_in: '60' })).toBeUndefined();
  });
});

describe('the lifetime an issuing answer declares', () => {
  const lifetimeOf = async (answer: Schema, example?: unknown) => {
    const document = await loadDocument(documentWith({}, answer, example));
    return declaredLifetime(document.operations.find((operation) => operation.path === '/login')!);
  };

  it('is the example of expires_in (or expiresIn), else an hour; none without it', async () => {
    expect(await lifetimeOf({ type: 'object', properties: { access_token: { type: 'string' }, expires_in: { type: 'integer', example: 900 } } })).toBe(900);
    expect(await lifetimeOf({ type: 'object', properties: { token: { type: 'string' }, expiresIn: { type: 'integer' } } }, { token: 't', expiresIn: 60 })).toBe(
      60,
    );
    expect(await lifetimeOf({ type: 'object', properties: { token: { type: 'string' }, expires_in: { type: 'integer' } } })).toBe(DEFAULT_LIFETIME_SECONDS);
    expect(await lifetimeOf({ type: 'object', properties: { token: { type: 'string' } } })).toBeUndefined();
    // A string "expires_in" is no lifetime in seconds.
    expect(await lifetimeOf({ type: 'object', properties: { token: { type: 'string' }, expires_in: { type: 'string' } } })).toBeUndefined();
  });
});

describe('issued tokens of one process end', () => {
  const user = (key: number) => ({ tenant: 'shared', collection: 'users', key: BigInt(key) });

  it('at a log-out: refused and said to be logged out, other tokens unaffected', () => {
    const issued = createIssuedTokens(10);
    const [one, two] = [issued.issue(user(1)), issued.issue(user(1))] as [string, string];
    issued.revoke(one);
    expect(issued.find(one)).toBeUndefined();
    expect(issued.ended(one)).toBe('logged-out');
    expect(issued.find(two)).toEqual(user(1));
    expect(issued.ended(two)).toBeUndefined();
    expect(issued.ended('made-up')).toBeUndefined();
  });

  it('at their lifetime: refused and said to be expired, then dropped; the bound holds', () => {
    let now = 1_000_000;
    const issued = createIssuedTokens(3, () => now);
    const lasting = issued.issue(user(1));
    const short = issued.issue(user(2), 1000);
    now += 999;
    expect(issued.find(short)).toEqual(user(2));
    now += 1;
    expect(issued.find(short)).toBeUndefined();
    expect(issued.ended(short)).toBe('expired');
    expect(issued.find(lasting)).toEqual(user(1));
    // Once ENDED_KEPT_MS has passed, the next issue drops it: forgotten, as never issued.
    now += ENDED_KEPT_MS;
    expect(issued.ended(short)).toBeUndefined();
    issued.issue(user(3), 1000);
    expect(issued.size).toBe(2);
    for (const key of [4, 5, 6]) issued.issue(user(key), 1000);
    expect(issued.size).toBe(3);
    expect(issued.find(lasting)).toBeUndefined();
  });
});
