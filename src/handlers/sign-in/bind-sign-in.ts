/**
 * Serves the document's sign-in (docs/sign-in.md; what is one: src/core/resources/sign-in.ts):
 * a sign-up stores the user (through the users resource's own create when the document makes
 * one, else in a `users` collection of the tenant) and a log-in matches one; both answer the user
 * with a new random token, which the credential checks then honour (src/auth/issued-tokens.ts).
 * The current-user operations read and update the user the request's token was issued to.
 * Under --isolate-by-token an issued token works in the tenant its user signed up in. A log-out
 * ends the session of the token it carries; a token expires after the lifetime its issuing answer
 * declares (`expires_in`) or --token-lifetime gives (src/core/resources/sessions.ts).
 */
import type { IHttpOperation } from '@stoplight/types';
import { errorMessage, failure } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { Resource } from '../../core/resources/model.js';
import { isPasswordProperty, isRefreshTokenName, refreshTokenPath, requestEnvelope, tokenPath, type SignIn } from '../../core/resources/sign-in.js';
import { declaredLifetime } from '../../core/resources/sessions.js';
import { presentedToken, type IssuedTokens, type IssuedUser } from '../../auth/issued-tokens.js';
import { collectionKey, type CollectionKey, type ItemStore, type ResourceStores } from '../../store/item-store.js';
import type { TenantId } from '../../store/tenants.js';
import type { Outcome } from '../../http/answer.js';
import { guarded, refuse, successAnswer, type RoleHandler } from '../resource/parts.js';
import { compileUserAnswer, withIssuedToken, type Session, type UserAnswer } from './answer.js';
import { claimValues } from './claims.js';
import { givenPassword, isRecord, leafValues, mergedUser, passwordMatches, sealPasswords, storedEnvelope, takenValue, unwrapped, userWith } from './users.js';

export interface SignInParts {
  readonly signIn: SignIn;
  readonly issued: IssuedTokens;
  /** The refresh tokens issued beside the bearer where an answer declares one; absent: none is honoured. */
  readonly refreshTokens?: IssuedTokens | undefined;
  readonly stores: ResourceStores;
  /** The resource whose create is the sign-up, when the document makes users a resource. */
  readonly usersResource: Resource | undefined;
  /** Every resource's name: the users collection of a document without a users resource must not be one of them. */
  readonly resourceNames: readonly string[];
  /** --token-lifetime: every issued token's lifetime in seconds, whatever the answers declare. */
  readonly tokenLifetimeSeconds?: number | undefined;
}

export interface SignInBinding {
  /** The handler of a sign-in operation (given the resource handler it may stand on), else undefined. */
  handlerFor(operation: IHttpOperation, stateful: RoleHandler | undefined): RoleHandler | undefined;
  /** The tenant whose user a token was issued to (waiting for the shared store, when tokens are kept there). */
  tenantOf(token: string): TenantId | undefined | Promise<TenantId | undefined>;
}

export function compileSignIn(parts: SignInParts): SignInBinding {
  const { signIn, issued, stores } = parts;
  const resource = parts.usersResource;
  const key: CollectionKey = resource !== undefined ? collectionKey(resource) : parts.resourceNames.includes('users') ? 'sign-in.users' : 'users';
  const usersOf = async (tenant: TenantId): Promise<ItemStore> => (await stores.forTenant(tenant)).collection(key);
  /** The claims of the unique values of a users collection's users (claims.ts): what keeps replicas from sharing an email. */
  const claimsOf = async (tenant: TenantId, users: CollectionKey): Promise<ItemStore> =>
    (await stores.forTenant(tenant)).collection(`sign-in.claims/${encodeURIComponent(users)}`);
  // One sign-up at a time in this process; claims.ts keeps replicas apart.
  let signUps: Promise<unknown> = Promise.resolve();
  const serialized = (step: () => Promise<Outcome>): Promise<Outcome> => {
    const next = signUps.then(step, step);
    signUps = next.catch(() => undefined);
    return next;
  };

  /** The lifetime of the tokens `operation` issues, in seconds: --token-lifetime, else its answer's `expires_in`; undefined: they last. */
  const lifetimeOf = (operation: IHttpOperation): number | undefined => parts.tokenLifetimeSeconds ?? declaredLifetime(operation);
  const issue = (user: IssuedUser, seconds: number | undefined) => issued.issue(user, seconds === undefined ? undefined : seconds * 1000);
  /**
   * How `operation` opens a session for a user: its bearer, and a refresh token where its answer
   * declares one (kept apart: never a bearer). Read once per operation, not per request.
   */
  const sessionOf = (operation: IHttpOperation): ((user: IssuedUser, seconds: number | undefined) => Promise<Session>) => {
    const refreshTokens = refreshTokenPath(successAnswer(operation, [200, 201]).schema) === undefined ? undefined : parts.refreshTokens;
    return async (user, seconds) => {
      const token = await issue(user, seconds);
      return refreshTokens === undefined ? { token } : { token, refresh: await refreshTokens.issue(user) };
    };
  };

  function signUpHandler(operation: IHttpOperation, stateful: RoleHandler | undefined): RoleHandler {
    const session = sessionOf(operation);
    const lifetime = lifetimeOf(operation);
    const schema = successAnswer(operation, [201, 200]).schema;
    const path = tokenPath(schema, signIn.addsToken);
    const userAnswer = compileUserAnswer(operation, [201, 200], signIn.addsToken);
    const envelope = requestEnvelope(operation);
    return (context) => {
      const body = context.body;
      if (!isRecord(body)) return Promise.resolve(refuse(failure('badRequest', 'a sign-up is a JSON object')));
      const given = leafValues(body);
      const unique = pick(given, signIn.unique);
      return serialized(() =>
        guarded(async () => {
          const store = await usersOf(context.tenant);
          const taken = await takenValue(store, unique);
          if (taken !== undefined) return refuse(failure('credentialsTaken', errorMessage('credentialsTaken', `a user with ${taken} is already signed up`)));
          const claim = await claimValues(await claimsOf(context.tenant, key), store, unique);
          if (!claim.ok) return refuse(failure('credentialsTaken', errorMessage('credentialsTaken', `a user with ${claim.taken} is already signed up`)));
          const sealed = sealPasswords(body) as Readonly<Record<string, JsonValue>>;
          if (stateful !== undefined) {
            const outcome = await stateful({ ...context, body: sealed }).catch(async (error: unknown) => {
              await claim.release();
              throw error;
            });
            if (!outcome.ok) {
              await claim.release();
              return outcome;
            }
            const user = await userWith(store, pick(given, [...new Set([...signIn.identity, ...signIn.unique])]));
            if (user !== undefined) await claim.held(user.id);
            if (typeof outcome.answer.body !== 'string' || user === undefined) return outcome;
            const issuedNow = await session(issuedTo(context.tenant, key, user.id), lifetime);
            return { ...outcome, answer: { ...outcome.answer, body: withIssuedToken(outcome.answer.body, path, issuedNow, schema, lifetime) } };
          }
          const fields = unwrapped(sealed, envelope);
          const id = await store.allocate();
          const created = await store.create({ id, fields });
          if (!created.ok) {
            await claim.release();
            return refuse(failure('credentialsTaken', errorMessage('credentialsTaken', 'the user store gave a taken number; try again')));
          }
          await claim.held(id);
          return userAnswer(fields, await session(issuedTo(context.tenant, key, id), lifetime), lifetime);
        }),
      );
    };
  }

  function logInHandler(operation: IHttpOperation): RoleHandler {
    const session = sessionOf(operation);
    const lifetime = lifetimeOf(operation);
    const userAnswer = compileUserAnswer(operation, [200, 201], signIn.addsToken);
    const names = signIn.identity.join(' and ');
    return (context) => {
      const body = context.body;
      if (!isRecord(body)) return Promise.resolve(refuse(failure('badRequest', 'a log-in is a JSON object')));
      const given = leafValues(body);
      const password = givenPassword(body);
      // One /token for every grant (GoTrue's): a body with a refresh token and no password renews a session.
      if (password === undefined && refreshTokenIn(given) !== undefined) return renewed(session, given, lifetime, userAnswer);
      const identity = pick(given, signIn.identity);
      const wrong = refuse(failure('wrongCredentials', errorMessage('wrongCredentials', `no signed-up user has this ${names} and this password`)));
      if (password === undefined || identity.size < signIn.identity.length) return Promise.resolve(wrong);
      return guarded(async () => {
        const store = await usersOf(context.tenant);
        const user = await userWith(store, identity);
        const stored = user === undefined ? undefined : [...leafValues(user.fields as JsonValue)].find(([name]) => isPasswordProperty(name))?.[1];
        if (user === undefined || !passwordMatches(stored, password)) return wrong;
        return userAnswer(unwrapped(user.fields, storedEnvelope(user.fields)), await session(issuedTo(context.tenant, key, user.id), lifetime), lifetime);
      });
    };
  }

  /** The refresh operation: trades a refresh token for a new session (src/core/resources/sign-in.ts refreshOf). */
  function refreshHandler(operation: IHttpOperation): RoleHandler {
    const session = sessionOf(operation);
    const lifetime = lifetimeOf(operation);
    const userAnswer = compileUserAnswer(operation, [200, 201], signIn.addsToken);
    return (context) => {
      const body = context.body;
      if (!isRecord(body)) return Promise.resolve(refuse(failure('badRequest', 'a refresh is a JSON object')));
      return renewed(session, leafValues(body), lifetime, userAnswer);
    };
  }

  /**
   * A new session for the user a refresh token was issued to; the token is used up (rotated, as OAuth
   * servers do), so a second use is refused as one never issued.
   */
  function renewed(
    session: (user: IssuedUser, seconds: number | undefined) => Promise<Session>,
    given: ReadonlyMap<string, JsonValue>,
    lifetime: number | undefined,
    userAnswer: UserAnswer,
  ): Promise<Outcome> {
    const presented = refreshTokenIn(given);
    const unknown = refuse(
      failure('wrongCredentials', errorMessage('wrongCredentials', 'this refresh token was never issued, or was used already; log in again')),
    );
    return guarded(async () => {
      // Found and used up in one step: two refreshes with one token at once give one session, not two.
      const user = presented === undefined || parts.refreshTokens === undefined ? undefined : await parts.refreshTokens.take(presented);
      if (user === undefined) return unknown;
      const item = await (await stores.forTenant(user.tenant)).collection(user.collection).get(user.key);
      if (item === undefined) return unknown;
      return userAnswer(unwrapped(item.fields, storedEnvelope(item.fields)), await session(user, lifetime), lifetime);
    });
  }

  /** The current user's read, or (with `update`) its update. */
  function currentUserHandler(operation: IHttpOperation, update: boolean): RoleHandler {
    const userAnswer = compileUserAnswer(operation, [200], signIn.addsToken);
    const envelope = requestEnvelope(operation);
    return (context) =>
      guarded(async () => {
        const token = presentedToken(context.request.headers);
        const user = token === undefined ? undefined : await issued.find(token);
        const noUser = refuse(failure('wrongCredentials', errorMessage('wrongCredentials', 'this token names no signed-up user; sign up or log in')));
        if (token === undefined || user === undefined) return noUser;
        const store = (await stores.forTenant(user.tenant)).collection(user.collection);
        const item = await store.get(user.key);
        if (item === undefined) return noUser;
        if (!update) return userAnswer(unwrapped(item.fields, storedEnvelope(item.fields)), { token });
        const change = isRecord(context.body) ? unwrapped(context.body, envelope) : {};
        const wanted = pick(leafValues(change), signIn.unique);
        const taken = await takenValue(store, wanted, item.id);
        if (taken !== undefined) return refuse(failure('credentialsTaken', errorMessage('credentialsTaken', `a user with ${taken} is already signed up`)));
        // The values the user does not have yet are claimed; the ones it gives up leave claims that are stale from now on.
        const held = leafValues(item.fields as JsonValue);
        const claim = await claimValues(
          await claimsOf(user.tenant, user.collection),
          store,
          new Map([...wanted].filter(([name, value]) => held.get(name) !== value)),
        );
        if (!claim.ok) return refuse(failure('credentialsTaken', errorMessage('credentialsTaken', `a user with ${claim.taken} is already signed up`)));
        const changed = await store.update(item.id, (current) => ({ id: current.id, fields: mergedUser(current.fields, change) }));
        if (changed === undefined) {
          await claim.release();
          return noUser;
        }
        await claim.held(item.id);
        return userAnswer(unwrapped(changed.fields, storedEnvelope(changed.fields)), { token });
      });
  }

  /** The log-out: ends the session of the token the request carries (the credential check honoured it), answers the declared success. */
  function logOutHandler(operation: IHttpOperation): RoleHandler {
    const ended = compileUserAnswer(operation, [204, 200]);
    return (context) =>
      guarded(async () => {
        const token = presentedToken(context.request.headers);
        if (token !== undefined) await issued.revoke(token);
        return ended({}, undefined);
      });
  }

  const { signUp, logIn, currentUser, updateUser, logOut, refresh } = signIn;
  return {
    handlerFor(operation, stateful) {
      if (operation === logOut) return logOutHandler(operation);
      if (operation === signUp) return signUpHandler(operation, stateful);
      if (operation === logIn) return logInHandler(operation);
      if (operation === refresh) return refreshHandler(operation);
      if (operation === currentUser) return currentUserHandler(operation, false);
      if (operation === updateUser) return currentUserHandler(operation, true);
      return undefined;
    },
    tenantOf(token) {
      const user = issued.find(token);
      return user instanceof Promise ? user.then((found) => found?.tenant) : user?.tenant;
    },
  };
}

/** The refresh token a request body gives (through envelopes), by its name. */
function refreshTokenIn(given: ReadonlyMap<string, JsonValue>): string | undefined {
  const found = [...given].find(([name, value]) => isRefreshTokenName(name) && typeof value === 'string' && value !== '')?.[1];
  return typeof found === 'string' ? found : undefined;
}

function issuedTo(tenant: TenantId, collection: CollectionKey, key: IssuedUser['key']): IssuedUser {
  return { tenant, collection, key };
}

/** The given values of `names`, by name. */
function pick(values: ReadonlyMap<string, JsonValue>, names: readonly string[]): Map<string, JsonValue> {
  return new Map(names.flatMap((name) => (values.has(name) ? [[name, values.get(name) as JsonValue] as const] : [])));
}
