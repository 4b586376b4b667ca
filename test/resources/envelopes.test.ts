/**
 * Resources whose bodies are wrapped in envelopes, served over a real socket: the RealWorld Conduit
 * document (public, test/fixtures/documents/realworld-conduit.yaml), the Conduit-style one written
 * for plantstore, and a {"data": [...], "meta": {...}} list. An item is created in its envelope,
 * read by its id, found in a list whose count is the filtered total, changed, deleted, then gone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;
/** RealWorld's apiKey scheme takes `Token <t>`; the Conduit-style document's bearer scheme `Bearer <t>`. */
function caller(server: ReturnType<typeof serverFor>, authorization = 'Token t') {
  const headers = { 'content-type': 'application/json', authorization };
  return (method: string, path: string, body?: unknown): Promise<Reply> =>
    send(`${server.current.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

type Article = { readonly slug: string; readonly title: string; readonly body: string };

describe('the RealWorld Conduit document: articles in {"article": {...}}', () => {
  const server = serverFor({ spec: `${FIXTURES}realworld-conduit.yaml` });
  // A sign-in document honours the tokens its sign-up issued (docs/sign-in.md): sign up first.
  let authorization = '';
  const call = (method: string, path: string, body?: unknown): Promise<Reply> => caller(server, authorization)(method, path, body);
  beforeAll(async () => {
    const signedUp = await caller(server, '')('POST', '/users', { user: { username: 'writer', email: 'writer@example.com', password: 'pw-123456' } });
    authorization = `Token ${(signedUp.json as { user: { token: string } }).user.token}`;
  });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('creates in the envelope, reads by slug, lists with a true articlesCount, replaces, deletes, then reads nothing', async () => {
    const created = await call('POST', '/articles', { article: { title: 'How to train', description: 'd', body: 'b', tagList: ['x'] } });
    expect(created.status, created.text).toBe(201);
    conforms('post', '/articles', created);
    const article = (created.json as { article: Article }).article;
    expect(article).toMatchObject({ title: 'How to train', description: 'd', body: 'b', tagList: ['x'] });
    expect(typeof article.slug).toBe('string');
    const path = `/articles/${encodeURIComponent(article.slug)}`;

    const read = await call('GET', path);
    expect(read.status, read.text).toBe(200);
    conforms('get', '/articles/{slug}', read);
    expect(read.json).toEqual({ article });

    for (const title of ['second', 'third']) await call('POST', '/articles', { article: { title, description: 'd', body: 'b' } });
    const page = await call('GET', '/articles?limit=2&offset=0');
    expect(page.status, page.text).toBe(200);
    conforms('get', '/articles', page);
    const listed = page.json as { articles: Article[]; articlesCount: number };
    expect(listed.articles).toHaveLength(2);
    // The count is the collection's, not the page's.
    expect(listed.articlesCount).toBe(3);

    const replaced = await call('PUT', path, { article: { title: 'How to train', description: 'd2', body: 'b2' } });
    expect(replaced.status, replaced.text).toBe(200);
    conforms('put', '/articles/{slug}', replaced);
    expect((replaced.json as { article: Article }).article).toMatchObject({ slug: article.slug, description: 'd2', body: 'b2' });
    expect(((await call('GET', path)).json as { article: Article }).article.body).toBe('b2');

    const deleted = await call('DELETE', path);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await call('GET', path);
    // The document declares no 404 for this read: the refusal is its declared error, never the item.
    expect(gone.status, gone.text).not.toBe(200);
    conforms('get', '/articles/{slug}', gone);
    expect(((await call('GET', '/articles')).json as { articlesCount: number }).articlesCount).toBe(2);
  });

  it('refuses a body without its envelope, storing nothing', async () => {
    const before = ((await call('GET', '/articles')).json as { articlesCount: number }).articlesCount;
    const bare = await call('POST', '/articles', { title: 'bare', description: 'd', body: 'b' });
    expect(bare.status, bare.text).toBeGreaterThanOrEqual(400);
    expect(bare.status).toBeLessThan(500);
    expect(((await call('GET', '/articles')).json as { articlesCount: number }).articlesCount).toBe(before);
  });
});

describe('the Conduit-style document: a deleted article reads 404 in the declared error shape', () => {
  const server = serverFor({ spec: `${FIXTURES}conduit.yaml` });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('creates, reads, lists with a count, deletes, then answers 404', async () => {
    // A sign-in document honours the tokens its sign-up issued (docs/sign-in.md): sign up first.
    const signedUp = await caller(server, '')('POST', '/users', { user: { username: 'reader', email: 'reader@example.com', password: 'pw-123456' } });
    expect(signedUp.status, signedUp.text).toBeLessThan(300);
    const call = caller(server, `Bearer ${(signedUp.json as { user: { token: string } }).user.token}`);
    const created = await call('POST', '/articles', { article: { title: 'Hello', description: 'd', body: 'b' } });
    expect(created.status, created.text).toBe(201);
    conforms('post', '/articles', created);
    const { slug } = (created.json as { article: Article }).article;
    const path = `/articles/${encodeURIComponent(slug)}`;
    const read = await call('GET', path);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    const list = await call('GET', '/articles?limit=1');
    conforms('get', '/articles', list);
    expect(list.json).toEqual({ articlesCount: 1, articles: [(created.json as { article: Article }).article] });
    expect((await call('DELETE', path)).status).toBe(204);
    const gone = await call('GET', path);
    expect(gone.status, gone.text).toBe(404);
    conforms('get', '/articles/{slug}', gone);
  });
});

describe('a {"data": [...], "meta": {...}} list envelope', () => {
  const server = serverFor({ spec: new URL('./documents/notes-meta.yaml', import.meta.url).pathname });
  const call = caller(server);
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('fills meta truthfully: the filtered total, the page’s limit and offset, the number of pages', async () => {
    const ids: unknown[] = [];
    for (const [text, status] of [
      ['a', 'open'],
      ['b', 'done'],
      ['c', 'open'],
      ['d', 'open'],
      ['e', 'done'],
    ]) {
      const created = await call('POST', '/notes', { data: { text, status } });
      expect(created.status, created.text).toBe(201);
      conforms('post', '/notes', created);
      ids.push((created.json as { data: { id: unknown } }).data.id);
    }
    const page = await call('GET', '/notes?status=open&limit=2&offset=1');
    expect(page.status, page.text).toBe(200);
    conforms('get', '/notes', page);
    expect(page.json).toMatchObject({ data: [{ text: 'c' }, { text: 'd' }], meta: { total: 3, limit: 2, offset: 1, pages: 2 } });
    const everything = await call('GET', '/notes');
    expect(everything.json).toMatchObject({ meta: { total: 5, limit: 10, offset: 0, pages: 1 } });

    const updated = await call('PATCH', `/notes/${String(ids[0])}`, { data: { status: 'done' } });
    expect(updated.status, updated.text).toBe(200);
    conforms('patch', '/notes/{id}', updated);
    expect(updated.json).toEqual({ data: { id: ids[0], text: 'a', status: 'done' } });
    expect(((await call('GET', '/notes?status=open')).json as { meta: { total: number } }).meta.total).toBe(2);

    expect((await call('DELETE', `/notes/${String(ids[0])}`)).status).toBe(204);
    const gone = await call('GET', `/notes/${String(ids[0])}`);
    expect(gone.status).toBe(404);
    conforms('get', '/notes/{id}', gone);
  });
});

describe('a list whose offset has no minimum (RealWorld’s)', () => {
  const server = serverFor({ spec: `${FIXTURES}realworld-conduit.yaml` });

  it('reads a negative offset as the start, as the schema lets it through, instead of refusing a valid request', async () => {
    const reply = await send(`${server.current.url}/articles?offset=-1`);
    expect(reply.status, reply.text).toBe(200);
    expectConforms(server.current.document, 'get', '/articles', reply);
    expect(reply.json).toEqual({ articles: [], articlesCount: 0 });
  });
});
