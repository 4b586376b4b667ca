/**
 * Sign-in read from the document, once for serve and verify: the operations that issue a
 * credential (open, a password-like property in the request body, a token-like property in the
 * success answer, through an envelope such as {"user": {...}}), which of them signs up and which
 * logs in, and the current-user operations (a secured GET without path parameters answering the
 * user, and a PUT/PATCH of the same path). Names decide what is a password and a token: nothing
 * else in a schema says so. The journal masks the same names (src/journal/mask.ts).
 */
import type { Operation } from '../openapi/load-document.js';
import { isSuccess, jsonRequestBody } from '../openapi/operation.js';
import { securityOf } from '../openapi/security.js';
import { itemWrapper } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';
import { typeOf } from '../schema/types.js';
import { jsonSuccessSchema } from './responses.js';
import { logOutOf } from './sessions.js';

/** How deep a body is read for credentials: an envelope or two. */
const MAX_DEPTH = 3;
const PASSWORD = /passw(or)?d|^pass$|^secret$/i;
const TOKEN = /^(token|jwt|access_?token|auth_?token|id_?token|session_?token|refresh_?token)$/i;
/** Properties no two users share, whatever the log-in asks for. */
const UNIQUE = /^(user_?name|login|handle|e_?mail|e_?mail_?address)$/i;

export type CredentialRole = 'sign-up' | 'log-in';

/** A property that holds a password (by its name, or `format: password`). */
export function isPasswordProperty(name: string, schema?: Readonly<Record<string, unknown>>): boolean {
  return PASSWORD.test(name) || schema?.format === 'password';
}

/**
 * Token properties in the order a client presents them as its bearer: an access token, then a plain
 * token (`token`, `jwt`, …), then an ID token (Firebase's `idToken` is its bearer). A refresh token
 * only renews a session and is never presented: an answer written with sorted keys puts
 * `refresh_token` before `token`, and the first token-like property is not the bearer.
 */
const BEARER_RANKS: readonly RegExp[] = [/^access_?token$/i, /^(token|jwt|auth_?token|session_?token)$/i, /^id_?token$/i];

/** The property's rank as the bearer (lower is likelier), or undefined when it is never the bearer. */
function bearerRank(name: string): number | undefined {
  const rank = BEARER_RANKS.findIndex((pattern) => pattern.test(name));
  return rank === -1 ? undefined : rank;
}

/** A refresh token's property: what renews a session, presented in a request body, never as the bearer. */
const REFRESH_TOKEN = /^refresh_?token$/i;

export function isRefreshTokenName(name: string): boolean {
  return REFRESH_TOKEN.test(name);
}

/** Where an answer of `schema` carries a refresh token (['refresh_token'], ['data', 'refreshToken']); undefined when it declares none. */
export function refreshTokenPath(schema: unknown): readonly string[] | undefined {
  return leaves(schema).find((leaf) => isRefreshTokenName(leaf.name))?.path;
}

/**
 * The operation that renews a session: a request body that names a refresh token and no password,
 * answering a bearer token (POST /auth/refresh {refresh_token}). A log-in whose body takes both (one
 * /token for every grant) is the log-in's, not this.
 */
function refreshOf(operations: readonly Operation[], issuers: ReadonlySet<Operation>): Operation | undefined {
  return operations.find((operation) => {
    if (issuers.has(operation)) return false;
    const asked = leaves(jsonRequestBody(operation)?.schema);
    if (!asked.some((leaf) => isRefreshTokenName(leaf.name)) || asked.some((leaf) => isPasswordProperty(leaf.name, leaf.schema))) return false;
    return tokenPath(jsonSuccessSchema(operation)) !== undefined;
  });
}

/** Of named candidates, the first of the best bearer rank; undefined when none is a bearer. */
function bestBearer<T>(candidates: Iterable<readonly [string, T]>): T | undefined {
  let best: T | undefined;
  let bestRank = BEARER_RANKS.length;
  for (const [name, candidate] of candidates) {
    const rank = bearerRank(name);
    if (rank !== undefined && rank < bestRank) [best, bestRank] = [candidate, rank];
  }
  return best;
}

/** A property whose value is a secret: what the journal and reports never show. */
export function isSecretProperty(name: string): boolean {
  return PASSWORD.test(name) || TOKEN.test(name);
}

/** A leaf property of an object schema: its path from the top (envelopes first) and its schema. */
export interface Leaf {
  readonly path: readonly string[];
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** The leaf properties of an object schema, through nested objects (envelopes). */
export function leaves(schema: unknown, at: readonly string[] = []): Leaf[] {
  if (at.length > MAX_DEPTH) return [];
  return [...objectShape(schema).properties].flatMap(([name, inner]): Leaf[] =>
    typeOf(inner) === 'object' ? leaves(inner, [...at, name]) : [{ path: [...at, name], name, schema: inner }],
  );
}

/**
 * Whether the operation issues a credential (see the module's comment). Given the document's
 * operations, also one whose answer declares no token but lets one be added (addsToken).
 */
export function issuesCredential(operation: Operation, operations?: readonly Operation[]): boolean {
  if (!securityOf(operation).open) return false;
  const body = jsonRequestBody(operation);
  if (body === undefined || !leaves(body.schema).some((leaf) => isPasswordProperty(leaf.name, leaf.schema))) return false;
  const answers = operation.responses.filter((response) => isSuccess(Number(response.code))).flatMap((response) => response.contents ?? []);
  if (answers.some((content) => tokenPath(content.schema) !== undefined)) return true;
  return operations !== undefined && needsSession(operations) && answers.some((content) => tokenPath(content.schema, true) !== undefined);
}

/**
 * Where an answer of `schema` carries the token: ['token'], or ['user', 'token'] through an
 * envelope. With `added`, an answer that declares none but is an object (in its envelopes) not
 * forbidding other properties gets one as `token` in that inner object: RealWorld's published
 * `User` declares `password` where the real API answers `token`.
 */
export function tokenPath(schema: unknown, added = false): readonly string[] | undefined {
  const declared = bestBearer(leaves(schema).map((leaf) => [leaf.name, leaf.path] as const));
  if (declared !== undefined || !added) return declared;
  const envelopes = envelopesOf(schema);
  let inner: unknown = schema;
  for (const name of envelopes) inner = objectShape(inner).properties.get(name);
  if (typeOf(inner) !== 'object' || (inner as Readonly<Record<string, unknown>>).additionalProperties === false) return undefined;
  return [...envelopes, 'token'];
}

/** The names of the one-property object envelopes around an answer's object: `{"user": {...}}` → ['user']. */
function envelopesOf(schema: unknown): string[] {
  const names: string[] = [];
  let at = schema;
  while (names.length < MAX_DEPTH) {
    const [only, ...others] = [...objectShape(at).properties];
    if (only === undefined || others.length > 0 || typeOf(only[1]) !== 'object') break;
    names.push(only[0]);
    at = only[1];
  }
  return names;
}

/**
 * Whether the document's secured operations take a session credential: an http bearer token, or an API
 * key in Authorization (`Authorization: Token <t>`), what a sign-in's token is presented as.
 */
function needsSession(operations: readonly Operation[]): boolean {
  return operations.some((operation) =>
    securityOf(operation).alternatives.some((alternative) =>
      alternative.some(
        // Not oauth2 / openIdConnect: their tokens come from an authorization server, not this API.
        (scheme) =>
          (scheme.type === 'bearer' && scheme.declared === 'http') ||
          (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization'),
      ),
    ),
  );
}

function requestNames(operation: Operation): Set<string> {
  return new Set(leaves(jsonRequestBody(operation)?.schema).map((leaf) => leaf.name));
}

/**
 * The issuers' roles: of two whose requests ask for names one within the other, the larger signs up
 * and the smaller logs in; a lone issuer signs up when it declares 201 (it makes something) or is named
 * so (`POST /signup`, `/register`, operationId `signUp`: GoTrue's sign-up answers 200), else logs in.
 */
export function credentialRoles(operations: readonly Operation[]): Map<Operation, CredentialRole> {
  const issuers = operations.filter((operation) => issuesCredential(operation, operations));
  const names = new Map(issuers.map((operation) => [operation, requestNames(operation)]));
  const roles = new Map<Operation, CredentialRole>();
  for (const operation of issuers) {
    const own = names.get(operation) as Set<string>;
    const within = (other: Operation): boolean => {
      const theirs = names.get(other) as Set<string>;
      return other !== operation && [...theirs].every((name) => own.has(name)) && theirs.size < own.size;
    };
    const coveredBy = (other: Operation): boolean => {
      const theirs = names.get(other) as Set<string>;
      return other !== operation && [...own].every((name) => theirs.has(name)) && own.size < theirs.size;
    };
    if (issuers.some(coveredBy)) roles.set(operation, 'log-in');
    else if (issuers.some(within) || operation.responses.some((response) => response.code === '201') || namedSignUp(operation)) roles.set(operation, 'sign-up');
    else roles.set(operation, 'log-in');
  }
  return roles;
}

/** An issuer named for signing up: its path's last segment or its operationId. */
function namedSignUp(operation: Operation): boolean {
  const last = operation.path.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return /^(sign[-_]?up|register|registration)$/i.test(last) || /^(sign[-_]?up|register)/i.test(operation.iid ?? '');
}

/** The bearer token an answer carries (through envelopes), by the ranks tokenPath reads a schema with; or undefined. */
export function tokenIn(value: unknown): string | undefined {
  return bestBearer(namedStrings(value, 0));
}

/** The non-empty strings of an answer's properties, with their names, down to MAX_DEPTH. */
function* namedStrings(value: unknown, depth: number): Generator<readonly [string, string]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > MAX_DEPTH) return;
  for (const [name, inner] of Object.entries(value)) {
    if (typeof inner === 'string' && inner !== '') yield [name, inner];
    else yield* namedStrings(inner, depth + 1);
  }
}

/** The document's sign-in: its issuers by role, what identifies a user, its current-user operations. */
export interface SignIn {
  readonly signUp?: Operation;
  readonly logIn?: Operation;
  /**
   * The request properties that name a user: the log-in's other than the password (email, or
   * username), else the sign-up's that its answer gives back. A log-in matches on all of them; a
   * sign-up whose value of one is taken is refused.
   */
  readonly identity: readonly string[];
  /** The sign-up's properties no two users may share: the identity and any username, login or email it asks for. */
  readonly unique: readonly string[];
  /** The secured GET answering the signed-in user (GET /user, /me). */
  readonly currentUser?: Operation;
  /** A PUT or PATCH of the current user's path: updates the signed-in user. */
  readonly updateUser?: Operation;
  /** The operation that ends the session its token names (POST /logout, DELETE /session): sessions.ts. */
  readonly logOut?: Operation;
  /** The operation that trades a refresh token for a new session (POST /auth/refresh {refresh_token}). */
  readonly refresh?: Operation;
  /** The answers declare no token: the stand-in adds it as `token` in the answer's user object (tokenPath's `added`). */
  readonly addsToken: boolean;
}

/**
 * Reads the document's sign-in; undefined when no operation issues a credential. Read once per
 * document where its resource model is built (ResourceModel.signIn): serving and the banner take it from there.
 */
export function signInOf(operations: readonly Operation[]): SignIn | undefined {
  const roles = credentialRoles(operations);
  if (roles.size === 0) return undefined;
  const signUp = [...roles].find(([, role]) => role === 'sign-up')?.[0];
  const logIn = [...roles].find(([, role]) => role === 'log-in')?.[0];
  const identity = identityOf(logIn, signUp);
  const addsToken = [...roles.keys()].every((operation) => jsonSuccessSchema(operation) === undefined || tokenPath(jsonSuccessSchema(operation)) === undefined);
  const asked = signUp === undefined ? [] : leaves(jsonRequestBody(signUp)?.schema).map((leaf) => leaf.name);
  const unique = [...new Set([...identity, ...asked.filter((name) => UNIQUE.test(name))])];
  const currentUser = identity.length === 0 ? undefined : operations.find((operation) => answersUser(operation, 'get', identity));
  const updateUser =
    currentUser === undefined
      ? undefined
      : operations.find((operation) => operation.path === currentUser.path && /^(put|patch)$/i.test(operation.method) && !securityOf(operation).open);
  const logOut = logOutOf(operations);
  const refresh = refreshOf(operations, new Set(roles.keys()));
  return {
    ...(signUp !== undefined ? { signUp } : {}),
    ...(logIn !== undefined ? { logIn } : {}),
    identity,
    unique,
    ...(currentUser !== undefined ? { currentUser } : {}),
    ...(updateUser !== undefined ? { updateUser } : {}),
    ...(logOut !== undefined ? { logOut } : {}),
    ...(refresh !== undefined ? { refresh } : {}),
    addsToken,
  };
}

function identityOf(logIn: Operation | undefined, signUp: Operation | undefined): string[] {
  const named = (operation: Operation) => leaves(jsonRequestBody(operation)?.schema).filter((leaf) => !isPasswordProperty(leaf.name, leaf.schema));
  if (logIn !== undefined) return [...new Set(named(logIn).map((leaf) => leaf.name))];
  if (signUp === undefined) return [];
  const answered = new Set(leaves(jsonSuccessSchema(signUp)).map((leaf) => leaf.name));
  return [
    ...new Set(
      named(signUp)
        .filter((leaf) => answered.has(leaf.name) && typeOf(leaf.schema) === 'string')
        .map((leaf) => leaf.name),
    ),
  ];
}

/** A secured operation of `method` without path parameters whose success answer is an object holding every identity property. */
function answersUser(operation: Operation, method: string, identity: readonly string[]): boolean {
  if (operation.method.toLowerCase() !== method || operation.path.includes('{') || securityOf(operation).open) return false;
  const schema = jsonSuccessSchema(operation);
  if (schema === undefined || typeOf(schema) !== 'object') return false;
  const names = new Set(leaves(schema).map((leaf) => leaf.name));
  return identity.every((name) => names.has(name));
}

/**
 * The property a request body wraps its one object in (`{"user": {...}}` → "user"), read on its
 * own so sign-in works on enveloped documents whether or not resources see through envelopes.
 */
export function requestEnvelope(operation: Operation): string | undefined {
  // The schema reader's one reading of an item envelope (core/schema/envelope.ts), not a second one here.
  return itemWrapper(jsonRequestBody(operation)?.schema)?.property;
}
