/**
 * The one reading of sign-in (src/core/resources/sign-in.ts) on the fixture documents, the
 * banner's account of it, and the journal's masking of the secrets it names.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createIssuedTokens } from '../../src/auth/issued-tokens.js';
import { signInKinds, signInLines } from '../../src/cli/sign-in-banner.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources, modelToServe } from '../../src/core/resources/infer.js';
import { jsonSuccessSchema } from '../../src/core/resources/responses.js';
import { signInOf, tokenIn, tokenPath } from '../../src/core/resources/sign-in.js';
import { maskBody } from '../../src/journal/mask.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/documents/${name}`, import.meta.url));
const named = (operation: { method: string; path: string } | undefined) => operation && `${operation.method.toUpperCase()} ${operation.path}`;

describe('which operations sign users in', () => {
  it('is read where the resource model is built: the model carries it, a document without sign-in none', async () => {
    const document = await loadDocument(fixture('realworld-conduit.yaml'));
    const { signIn } = inferResources(document);
    // The document's own operations: serving knows the sign-in operations by identity.
    expect(signIn?.signUp).toBe(document.operations.find((operation) => operation.method === 'post' && operation.path === '/users'));
    expect([named(signIn?.signUp), named(signIn?.logIn), signIn?.addsToken]).toEqual(['POST /users', 'POST /users/login', true]);
    expect(tokenPath(signIn?.signUp && jsonSuccessSchema(signIn.signUp), true)).toEqual(['user', 'token']);
    expect(signIn).toEqual(signInOf(document.operations));
    expect('signIn' in inferResources(await loadDocument(fixture('swagger-petstore3.yaml')))).toBe(false);
  });

  it('is read from the document for a given model too: it says which resources, not who signs in', async () => {
    const document = await loadDocument(fixture('notes-sign-in.yaml'));
    const served = modelToServe(document, { resourceModel: { resources: [], notes: [] } });
    expect([named(served.signIn?.signUp), named(served.signIn?.logIn)]).toEqual(['POST /users', 'POST /login']);
    const petstore = await loadDocument(fixture('swagger-petstore3.yaml'));
    expect(modelToServe(petstore, { resourceModel: served }).signIn).toBeUndefined();
    expect(modelToServe(document, {}).signIn).toEqual(served.signIn);
  });

  it('reads the notes document: sign-up, log-in by username, GET and PUT /me', async () => {
    const signIn = signInOf((await loadDocument(fixture('notes-sign-in.yaml'))).operations);
    expect(
      signIn && {
        ...signIn,
        signUp: named(signIn.signUp),
        logIn: named(signIn.logIn),
        currentUser: named(signIn.currentUser),
        updateUser: named(signIn.updateUser),
        logOut: named(signIn.logOut),
      },
    ).toEqual({
      signUp: 'POST /users',
      logIn: 'POST /login',
      identity: ['username'],
      unique: ['username', 'email'],
      currentUser: 'GET /me',
      updateUser: 'PUT /me',
      logOut: 'POST /logout',
      addsToken: false,
    });
  });

  it('reads through the envelopes of conduit.yaml: log-in by email, GET /user', async () => {
    const signIn = signInOf((await loadDocument(fixture('conduit.yaml'))).operations);
    expect([named(signIn?.signUp), named(signIn?.logIn), signIn?.identity, named(signIn?.currentUser)]).toEqual([
      'POST /users',
      'POST /users/login',
      ['email'],
      'GET /user',
    ]);
  });

  it('reads the public RealWorld document, whose User declares no token: the token is added as user.token', async () => {
    const document = await loadDocument(fixture('realworld-conduit.yaml'));
    const signIn = signInOf(document.operations);
    expect([named(signIn?.signUp), named(signIn?.logIn), signIn?.identity, named(signIn?.currentUser), named(signIn?.updateUser), signIn?.addsToken]).toEqual([
      'POST /users',
      'POST /users/login',
      ['email'],
      'GET /user',
      'PUT /user',
      true,
    ]);
    expect(signInLines(inferResources(document), 0)).toContain(
      'sign-in: the answer declares no token: it is added as user.token (a required password is answered as "")',
    );
  });

  it('finds none where no answer carries a token (a writeOnly password alone is no sign-in)', async () => {
    expect(signInOf((await loadDocument(fixture('accounts.yaml'))).operations)).toBeUndefined();
    expect(signInOf((await loadDocument(fixture('swagger-petstore3.yaml'))).operations)).toBeUndefined();
  });

  it('says in the banner what signs in, where users are kept, how sessions end and which tokens count', async () => {
    const document = await loadDocument(fixture('notes-sign-in.yaml'));
    expect(signInLines(inferResources(document), 1)).toEqual([
      'sign-in: POST /users signs up (users kept as items of users); POST /login logs in (by username and password); GET /me answers the signed-in user; PUT /me updates the signed-in user; POST /logout logs out (the token it carries is refused from then on)',
      "tokens: the ones a sign-up or log-in issued and 1 configured; other bearer tokens are refused; they expire after 7200 s (the answer's expires_in)",
    ]);
    expect(signInLines(inferResources(document), 0, 30).at(-1)).toBe(
      'tokens: the ones a sign-up or log-in issued; other bearer tokens are refused; they expire after 30 s (--token-lifetime)',
    );
    // conduit.yaml declares no expires_in: its tokens last.
    expect(signInLines(inferResources(await loadDocument(fixture('conduit.yaml'))), 0).at(-1)).toBe(
      'tokens: the ones a sign-up or log-in issued; other bearer tokens are refused',
    );
    // The operations table names them for what they do, not "mocked from the document".
    expect([...signInKinds(inferResources(document))].map(([operation, kind]) => `${named(operation)} ${kind}`)).toEqual([
      'POST /users sign-in: signs up',
      'POST /login sign-in: logs in',
      'GET /me sign-in: the signed-in user',
      'PUT /me sign-in: updates the signed-in user',
      'POST /logout sign-in: logs out',
    ]);
  });
});

describe('which token is the bearer', () => {
  it('is the access token, then a token, then an ID token; a refresh token never, wherever it is written', async () => {
    // Sorted keys put refresh_token before token; an OpenID answer carries id_token beside access_token.
    expect(tokenIn({ refresh_token: 'r', token: 't' })).toBe('t');
    expect(tokenIn({ id_token: 'i', refresh_token: 'r', access_token: 'a' })).toBe('a');
    expect(tokenIn({ idToken: 'i', refreshToken: 'r' })).toBe('i');
    expect(tokenIn({ data: { refresh_token: 'r', jwt: 'j' } })).toBe('j');
    expect(tokenIn({ refresh_token: 'r' })).toBeUndefined();
    const document = await loadDocument(fixture('refresh-first-sign-in.yaml'));
    const signIn = signInOf(document.operations);
    expect(signIn?.logIn && tokenPath(jsonSuccessSchema(signIn.logIn))).toEqual(['token']);
    // The refresh operation: a body naming a refresh token and no password, answering a bearer.
    expect(named(signIn?.refresh)).toBe('POST /refresh');
    expect(signInLines(inferResources(document), 0)[0]).toContain('POST /refresh trades a refresh token, once, for a new session');
  });
});

describe('masking secrets in journal bodies', () => {
  it('masks password and token members, keeps the rest', () => {
    expect(maskBody('{"user":{"email":"a@b.c","password":"p\\"w","token":"abc"},"n":1}')).toBe(
      '{"user":{"email":"a@b.c","password":"***","token":"***"},"n":1}',
    );
  });

  it('masks a secret cut short at the end of a kept body', () => {
    expect(maskBody('{"email":"a@b.c","access_token":"eyJhbGciOi')).toBe('{"email":"a@b.c","access_token":"***"');
  });

  it('leaves a body that names no secret as it is, and a value that merely says "password"', () => {
    expect(maskBody('{"note":"my password is long","count":3}')).toBe('{"note":"my password is long","count":3}');
  });
});

describe('issued tokens', () => {
  it('are random, name their user, and are kept to a bound (the oldest forgotten first)', () => {
    const issued = createIssuedTokens(3);
    const tokens = [1, 2, 3, 4].map((key) => issued.issue({ tenant: 'shared', collection: 'users', key: BigInt(key) }));
    expect(new Set(tokens).size).toBe(4);
    expect(issued.size).toBe(3);
    expect(issued.find(tokens[0] as string)).toBeUndefined();
    expect(issued.find(tokens[3] as string)).toEqual({ tenant: 'shared', collection: 'users', key: 4n });
    expect(issued.find('made-up')).toBeUndefined();
  });
});
