/**
 * A correct double of test/fixtures/documents/conduit.yaml, a RealWorld "Conduit"-style API:
 * every body wraps its resource in one property, a sign-up (POST /users) and a log-in
 * (POST /users/login) issue a bearer token, and an article gets a slug the server makes from its
 * title, a createdAt and an author. A taken username or email is refused with 422, a log-in with
 * credentials no user has with 401. A sign-out (DELETE /users/sign_out) ends the session of the
 * token it carries, as Devise does: that token is refused with 401 from then on. The suite must
 * pass it with no failure and no warning.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonNumber, isJsonObject, JsonSyntaxError, parseExactJson, type JsonObject, type JsonValue } from './exact-json.js';
import { listenLocally, readBody, respond, type Answer, type LocalServer } from './http-double.js';

interface User {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

interface Article {
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly body: string;
  readonly tagList: readonly string[];
  readonly createdAt: string;
  readonly author: string;
}

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export const CONDUIT_FAULTS = {
  'log-in-refuses-everyone': 'POST /users/login refuses every log-in with 401, even of a user just signed up',
  'count-is-page': 'GET /articles answers articlesCount as the number of articles on the page, not of all (a common RealWorld fault)',
} as const satisfies Record<string, string>;

export type ConduitFault = keyof typeof CONDUIT_FAULTS;

export interface ConduitServer extends LocalServer {
  /** How many articles were created (the secured create was reached), sign-outs done, and every token issued and not signed out (none may reach a report). */
  readonly seen: () => { readonly articles: number; readonly signedOut: number; readonly tokens: readonly string[] };
}

export async function startConduitServer(fault?: ConduitFault): Promise<ConduitServer> {
  const users = new Map<string, User>();
  const tokens = new Map<string, User>();
  const articles = new Map<string, Article>();
  let made = 0;
  let signedOut = 0;
  const ended: string[] = [];
  const errors = (status: number, field: string, message: string): Answer => ({ status, body: { errors: { [field]: [message] } } });
  const userAnswer = (status: number, user: User): Answer => {
    const token = randomBytes(16).toString('hex');
    tokens.set(token, user);
    return { status, body: { user: { username: user.username, email: user.email, token, bio: null, image: null } } };
  };
  const articleAnswer = (article: Article) => ({
    ...article,
    tagList: [...article.tagList],
    author: { username: article.author, bio: null, image: null },
  });
  const signedIn = (headers: IncomingMessage['headers']): User | undefined => {
    const match = /^Bearer (\S+)$/.exec(headers.authorization ?? '');
    return match === null ? undefined : tokens.get(match[1] as string);
  };

  const handle = (method: string, path: string, query: URLSearchParams, headers: IncomingMessage['headers'], text: string): Answer => {
    if (path === '/users' && method === 'POST') {
      const user = envelope(headers, text, 'user');
      if (typeof user === 'string') return errors(422, 'body', user);
      const username = stringIn(user, 'username', 1, 40);
      const email = stringIn(user, 'email', 0, Infinity);
      const password = stringIn(user, 'password', 8, 64);
      if (username === undefined || email === undefined || password === undefined || !EMAIL.test(email)) return errors(422, 'body', 'invalid user');
      if (users.has(`u:${username}`)) return errors(422, 'username', 'has already been taken');
      if (users.has(`e:${email}`)) return errors(422, 'email', 'has already been taken');
      const made = { username, email, password };
      users.set(`u:${username}`, made);
      users.set(`e:${email}`, made);
      return userAnswer(201, made);
    }
    if (path === '/users/login' && method === 'POST') {
      const login = envelope(headers, text, 'user');
      if (typeof login === 'string') return errors(422, 'body', login);
      const email = stringIn(login, 'email', 0, Infinity);
      const password = stringIn(login, 'password', 8, 64);
      if (email === undefined || password === undefined || !EMAIL.test(email)) return errors(422, 'body', 'invalid credentials');
      const user = users.get(`e:${email}`);
      if (user === undefined || user.password !== password || fault === 'log-in-refuses-everyone') return errors(401, 'email or password', 'is invalid');
      return userAnswer(200, user);
    }
    if (path === '/users/sign_out' && method === 'DELETE') {
      const user = signedIn(headers);
      if (user === undefined) return errors(401, 'token', 'is missing or invalid');
      const token = headers.authorization?.slice(7) ?? '';
      tokens.delete(token);
      ended.push(token);
      signedOut += 1;
      return { status: 204 };
    }
    if (path === '/user' && method === 'GET') {
      const user = signedIn(headers);
      if (user === undefined) return errors(401, 'token', 'is missing or invalid');
      return { status: 200, body: { user: { username: user.username, email: user.email, token: headers.authorization?.slice(7), bio: null, image: null } } };
    }
    if (path === '/articles' && method === 'GET') {
      const limitText = query.get('limit');
      const limit = limitText === null ? 20 : /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
      if (query.getAll('limit').length > 1 || !(limit >= 1 && limit <= 100)) return errors(422, 'limit', 'must be from 1 to 100');
      const author = query.getAll('author');
      if (author.length > 1) return errors(422, 'author', 'must be given once');
      const all = [...articles.values()].reverse().filter((article) => author.length === 0 || article.author === author[0]);
      return {
        status: 200,
        body: { articles: all.slice(0, limit).map(articleAnswer), articlesCount: fault === 'count-is-page' ? Math.min(limit, all.length) : all.length },
      };
    }
    if (path === '/articles' && method === 'POST') {
      const user = signedIn(headers);
      if (user === undefined) return errors(401, 'token', 'is missing or invalid');
      const fields = envelope(headers, text, 'article');
      if (typeof fields === 'string') return errors(422, 'body', fields);
      const title = stringIn(fields, 'title', 1, 80);
      const description = stringIn(fields, 'description', 0, 200);
      const body = stringIn(fields, 'body', 0, 2000);
      const tags = tagListIn(fields);
      if (title === undefined || description === undefined || body === undefined || tags === undefined) return errors(422, 'article', 'is invalid');
      made += 1;
      const slug = `${slugOf(title)}-${made}`;
      const article = { slug, title, description, body, tagList: tags, createdAt: new Date().toISOString(), author: user.username };
      articles.set(slug, article);
      return { status: 201, body: { article: articleAnswer(article) } };
    }
    const item = /^\/articles\/([^/]+)$/.exec(path);
    if (item !== null && (method === 'GET' || method === 'DELETE')) {
      const slug = decodeURIComponent(item[1] as string);
      if (method === 'DELETE' && signedIn(headers) === undefined) return errors(401, 'token', 'is missing or invalid');
      const article = articles.get(slug);
      if (article === undefined) return errors(404, 'article', 'not found');
      if (method === 'GET') return { status: 200, body: { article: articleAnswer(article) } };
      articles.delete(slug);
      return { status: 204 };
    }
    return errors(404, 'path', `no ${method} ${path}`);
  };

  const server = await listenLocally((req: IncomingMessage, res: ServerResponse) => {
    readBody(req, res, 1_000_000, (body = Buffer.alloc(0)) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      respond(res, () => handle(req.method ?? 'GET', url.pathname, url.searchParams, req.headers, body.toString('utf8')));
    });
  });
  return { ...server, seen: () => ({ articles: made, signedOut, tokens: [...tokens.keys(), ...ended] }) };
}

/** The object a JSON body wraps in `property`, or why there is none. */
function envelope(headers: IncomingMessage['headers'], text: string, property: string): JsonObject | string {
  if (headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return 'content-type must be application/json';
  let value: JsonValue;
  try {
    value = parseExactJson(text);
  } catch (error) {
    return error instanceof JsonSyntaxError ? `not JSON: ${error.message}` : 'not JSON';
  }
  const inner = isJsonObject(value) ? value.get(property) : undefined;
  return isJsonObject(inner) ? inner : `body must wrap the ${property} in "${property}"`;
}

/** A string property within its length bounds (in code points), else undefined. */
function stringIn(fields: JsonObject, name: string, min: number, max: number): string | undefined {
  const value = fields.get(name);
  if (typeof value !== 'string') return undefined;
  const length = [...value].length;
  return length >= min && length <= max ? value : undefined;
}

/** tagList: absent (no tags), or at most 5 strings of 1 to 20 code points. */
function tagListIn(fields: JsonObject): string[] | undefined {
  const value = fields.get('tagList');
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 5) return undefined;
  const tags: string[] = [];
  for (const tag of value) {
    if (typeof tag !== 'string' || isJsonNumber(tag) || [...tag].length < 1 || [...tag].length > 20) return undefined;
    tags.push(tag);
  }
  return tags;
}

/** The title in lower case, runs of anything but letters and digits as one dash. */
function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? 'article' : slug.slice(0, 60);
}
