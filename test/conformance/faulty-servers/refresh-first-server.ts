/**
 * A correct double of test/fixtures/documents/refresh-first-sign-in.yaml: a sign-up (POST /users)
 * and a log-in (POST /login) answer the user with a bearer `token` and a `refresh_token`, written
 * with sorted keys as many servers write them (refresh_token before token). Only the token is a
 * bearer: a refresh token presented as one is refused with 401; POST /refresh trades one, once, for
 * a new session. Notes are read and written by a signed-in user. The suite must pass it with no failure and no warning.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isJsonObject, JsonSyntaxError, parseExactJson, type JsonObject, type JsonValue } from './exact-json.js';
import { listenWithBodies, type Answer, type LocalServer } from './http-double.js';

interface User {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/** Whom the 'honours-any-refresh-token' fault signs in when nobody signed up. */
const GUEST: User = { id: 0, username: 'guest', email: 'guest@example.com', password: '' };

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export interface RefreshFirstServer extends LocalServer {
  /** Every bearer and refresh token issued (none may reach a report in clear). */
  readonly issued: () => readonly string[];
  /** Notes created: the secured create was reached with the bearer. */
  readonly notes: () => number;
}

/**
 * The faults: sign-up and log-in answers carry a property the document forbids (its finding shows
 * the answer, tokens and all); or POST /refresh trades a refresh token it never issued for a session,
 * of the first user signed up (anyone may take that account over), or of a guest when there is none.
 */
export type RefreshFirstFault = 'answer-breaks-schema' | 'honours-any-refresh-token';

export async function startRefreshFirstServer(fault?: RefreshFirstFault): Promise<RefreshFirstServer> {
  const users = new Map<string, User>();
  const bearers = new Map<string, User>();
  const refreshTokens: string[] = [];
  /** Refresh tokens not yet used, to their user: each trades once for a new session. */
  const refreshable = new Map<string, User>();
  const notes = new Map<number, string>();
  let nextUser = 1;
  let nextNote = 1;
  const error = (status: number, message: string): Answer => ({ status, body: { message } });
  const signedInAnswer = (status: number, user: User): Answer => {
    const token = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    bearers.set(token, user);
    refreshTokens.push(refresh);
    refreshable.set(refresh, user);
    // Sorted keys: the refresh token comes first.
    const answer = { email: user.email, id: user.id, refresh_token: refresh, token, username: user.username };
    return { status, body: fault === 'answer-breaks-schema' ? { ...answer, verified: false } : answer };
  };
  const signedIn = (headers: IncomingMessage['headers']): User | undefined => {
    const match = /^Bearer (\S+)$/i.exec(headers.authorization ?? '');
    return match === null ? undefined : bearers.get(match[1] as string);
  };

  const handle = (req: IncomingMessage, path: string, text: string): Answer => {
    const method = req.method ?? 'GET';
    if (path === '/users' && method === 'POST') {
      const body = objectBody(req, text, ['username', 'email', 'password']);
      if (typeof body === 'string') return error(422, body);
      const username = stringIn(body, 'username', 1, 40);
      const email = stringIn(body, 'email', 0, Infinity);
      const password = stringIn(body, 'password', 8, Infinity);
      if (username === undefined || email === undefined || password === undefined || !EMAIL.test(email)) return error(422, 'invalid user');
      if (users.has(`u:${username}`) || users.has(`e:${email.toLowerCase()}`)) return error(409, 'the username or email is taken');
      const user = { id: nextUser++, username, email, password };
      users.set(`u:${username}`, user);
      users.set(`e:${email.toLowerCase()}`, user);
      return signedInAnswer(201, user);
    }
    if (path === '/login' && method === 'POST') {
      const body = objectBody(req, text, ['username', 'password']);
      if (typeof body === 'string') return error(422, body);
      const username = stringIn(body, 'username', 1, Infinity);
      const password = stringIn(body, 'password', 0, Infinity);
      if (username === undefined || password === undefined) return error(422, 'invalid credentials');
      const user = users.get(`u:${username}`);
      if (user === undefined || user.password !== password) return error(401, 'no user has these credentials');
      return signedInAnswer(200, user);
    }
    if (path === '/refresh' && method === 'POST') {
      const body = objectBody(req, text, ['refresh_token']);
      if (typeof body === 'string') return error(422, body);
      const presented = stringIn(body, 'refresh_token', 1, Infinity);
      if (presented === undefined) return error(422, 'refresh_token must be a string of at least 1 character');
      const owner = refreshable.get(presented) ?? (fault === 'honours-any-refresh-token' ? (users.values().next().value ?? GUEST) : undefined);
      if (owner === undefined) return error(401, 'this refresh token was never issued, or was used already');
      refreshable.delete(presented);
      return signedInAnswer(200, owner);
    }
    const user = signedIn(req.headers);
    if (path === '/me' && method === 'GET') {
      if (user === undefined) return error(401, 'not signed in');
      return { status: 200, body: { email: user.email, id: user.id, username: user.username } };
    }
    if (path === '/notes' && (method === 'GET' || method === 'POST')) {
      if (user === undefined) return error(401, 'not signed in');
      if (method === 'GET') return { status: 200, body: [...notes].map(([id, note]) => ({ id, text: note })) };
      const body = objectBody(req, text, ['text']);
      if (typeof body === 'string') return error(422, body);
      const note = stringIn(body, 'text', 1, Infinity);
      if (note === undefined) return error(422, 'text must be a string of at least 1 character');
      const id = nextNote++;
      notes.set(id, note);
      return { status: 201, body: { id, text: note } };
    }
    const item = /^\/notes\/([^/]+)$/.exec(path);
    if (item !== null && method === 'GET') {
      if (user === undefined) return error(401, 'not signed in');
      const raw = decodeURIComponent(item[1] as string);
      const note = /^-?\d+$/.test(raw) ? notes.get(Number(raw)) : undefined;
      return note === undefined ? error(404, `no note ${raw}`) : { status: 200, body: { id: Number(raw), text: note } };
    }
    return error(404, `no ${method} ${path}`);
  };

  const server = await listenWithBodies(handle, () => error(422, 'the body is too large'));
  return { ...server, issued: () => [...bearers.keys(), ...refreshTokens], notes: () => notes.size };
}

/** A JSON object body of only the `allowed` names (the document's objects allow no others), or why not. */
function objectBody(req: IncomingMessage, text: string, allowed: readonly string[]): JsonObject | string {
  if (req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return 'content-type must be application/json';
  let value: JsonValue;
  try {
    value = parseExactJson(text);
  } catch (failure) {
    return failure instanceof JsonSyntaxError ? `not JSON: ${failure.message}` : 'not JSON';
  }
  if (!isJsonObject(value)) return 'the body must be an object';
  const other = [...value.keys()].find((name) => !allowed.includes(name));
  return other === undefined ? value : `no property ${other} is allowed`;
}

/** A string property within its length bounds (in code points), else undefined. */
function stringIn(fields: JsonObject, name: string, min: number, max: number): string | undefined {
  const value = fields.get(name);
  if (typeof value !== 'string') return undefined;
  const length = [...value].length;
  return length >= min && length <= max ? value : undefined;
}
