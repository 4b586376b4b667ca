/**
 * Issue 20's "Done when" on the public RealWorld Conduit document (test/fixtures/documents/
 * realworld-conduit.yaml), over a real socket, as a frontend would: register, log in, use the
 * token (`Authorization: Token <t>`), create an article, read it by its server-made slug, find it
 * in a tag-filtered list with a true count, update it, comment on it, delete the comment and the
 * article. Every answer is checked against the document; a wrong token is refused with its 401.
 * The published `User` declares no token (and requires `password`): the token is added as
 * user.token, the password answered as "" (docs/sign-in.md).
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;

type User = { readonly email: string; readonly username: string; readonly password: string; readonly token: string; readonly bio: string };
type Article = { readonly slug: string; readonly title: string; readonly body: string; readonly tagList: readonly string[] };
type Comment = { readonly id: number; readonly body: string };

describe('the RealWorld Conduit flow: register, log in, use the token, an article and its comments', () => {
  const server = serverFor({ spec: `${FIXTURES}realworld-conduit.yaml` });
  const call = (method: string, path: string, body?: unknown, token?: string): Promise<Reply> =>
    send(`${server.current.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Token ${token}` }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** Sends, then checks the answer against the document's `method template`. */
  const conforming = async (method: string, template: string, path: string, body?: unknown, token?: string): Promise<Reply> => {
    const reply = await call(method, path, body, token);
    expectConforms(server.current.document, method.toLowerCase(), template, reply);
    return reply;
  };

  it('runs the whole flow, stateful and consistent, every answer valid against the document', async () => {
    const registered = await conforming('POST', '/users', '/users', { user: { username: 'ann', email: 'ann@example.com', password: 'pw-secret-1' } });
    expect(registered.status, registered.text).toBe(201);
    const signedUp = (registered.json as { user: User }).user;
    expect(signedUp).toMatchObject({ username: 'ann', email: 'ann@example.com', password: '' });
    expect(registered.text).not.toContain('pw-secret-1');
    expect(signedUp.token.length).toBeGreaterThan(20);

    const wrongPassword = await conforming('POST', '/users/login', '/users/login', { user: { email: 'ann@example.com', password: 'nope' } });
    expect(wrongPassword.status, wrongPassword.text).toBe(401);
    const loggedIn = await conforming('POST', '/users/login', '/users/login', { user: { email: 'ann@example.com', password: 'pw-secret-1' } });
    expect(loggedIn.status, loggedIn.text).toBe(200);
    const token = (loggedIn.json as { user: User }).user.token;
    expect(token).not.toBe(signedUp.token);
    expect(loggedIn.text).not.toContain('pw-secret-1');

    const me = await conforming('GET', '/user', '/user', undefined, token);
    expect(me.status, me.text).toBe(200);
    expect((me.json as { user: User }).user).toMatchObject({ username: 'ann', email: 'ann@example.com', token });
    const updatedMe = await conforming('PUT', '/user', '/user', { user: { bio: 'grows ferns' } }, token);
    expect(updatedMe.status, updatedMe.text).toBe(200);
    expect((updatedMe.json as { user: User }).user).toMatchObject({ username: 'ann', bio: 'grows ferns' });
    expect(((await conforming('GET', '/user', '/user', undefined, token)).json as { user: User }).user.bio).toBe('grows ferns');

    const created = await conforming(
      'POST',
      '/articles',
      '/articles',
      { article: { title: 'How to Train Your Fern', description: 'd', body: 'b', tagList: ['ferns', 'care'] } },
      token,
    );
    expect(created.status, created.text).toBe(201);
    const article = (created.json as { article: Article }).article;
    expect(article.slug).toBe('how-to-train-your-fern');
    await conforming('POST', '/articles', '/articles', { article: { title: 'Other', description: 'd', body: 'b', tagList: ['care'] } }, token);
    await conforming('POST', '/articles', '/articles', { article: { title: 'Untagged', description: 'd', body: 'b' } }, token);

    const path = `/articles/${article.slug}`;
    const read = await conforming('GET', '/articles/{slug}', path);
    expect(read.status, read.text).toBe(200);
    expect((read.json as { article: Article }).article).toEqual(article);

    // ?tag= keeps the articles whose tagList contains it; the count is the filtered total, not the page's.
    const ferns = await conforming('GET', '/articles', '/articles?tag=ferns');
    expect(ferns.status, ferns.text).toBe(200);
    expect(ferns.json).toMatchObject({ articlesCount: 1, articles: [{ slug: article.slug }] });
    const care = await conforming('GET', '/articles', '/articles?tag=care&limit=1');
    expect((care.json as { articles: Article[] }).articles).toHaveLength(1);
    expect((care.json as { articlesCount: number }).articlesCount).toBe(2);
    expect(((await conforming('GET', '/articles', '/articles')).json as { articlesCount: number }).articlesCount).toBe(3);

    const updated = await conforming('PUT', '/articles/{slug}', path, { article: { title: 'How to Train Your Fern', description: 'd2', body: 'b2' } }, token);
    expect(updated.status, updated.text).toBe(200);
    expect((updated.json as { article: Article }).article).toMatchObject({ slug: article.slug, body: 'b2' });
    expect(((await conforming('GET', '/articles/{slug}', path)).json as { article: Article }).article.body).toBe('b2');

    const commented = await conforming('POST', '/articles/{slug}/comments', `${path}/comments`, { comment: { body: 'lovely' } }, token);
    expect(commented.status, commented.text).toBe(200);
    const comment = (commented.json as { comment: Comment }).comment;
    expect(comment.body).toBe('lovely');
    const comments = await conforming('GET', '/articles/{slug}/comments', `${path}/comments`);
    expect((comments.json as { comments: Comment[] }).comments).toEqual([comment]);
    const uncommented = await conforming('DELETE', '/articles/{slug}/comments/{id}', `${path}/comments/${comment.id}`, undefined, token);
    expect(uncommented.status, uncommented.text).toBe(200);
    expect(((await conforming('GET', '/articles/{slug}/comments', `${path}/comments`)).json as { comments: Comment[] }).comments).toEqual([]);

    const deleted = await conforming('DELETE', '/articles/{slug}', path, undefined, token);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await conforming('GET', '/articles/{slug}', path);
    expect(gone.status, gone.text).not.toBe(200);
    expect(((await conforming('GET', '/articles', '/articles?tag=ferns')).json as { articlesCount: number }).articlesCount).toBe(0);
  });

  it('refuses a wrong token with the declared 401 and changes nothing', async () => {
    const before = ((await call('GET', '/articles')).json as { articlesCount: number }).articlesCount;
    const refused = await conforming('POST', '/articles', '/articles', { article: { title: 'Sneaky', description: 'd', body: 'b' } }, 'not-an-issued-token');
    expect(refused.status, refused.text).toBe(401);
    const me = await conforming('GET', '/user', '/user', undefined, 'not-an-issued-token');
    expect(me.status, me.text).toBe(401);
    expect(((await call('GET', '/articles')).json as { articlesCount: number }).articlesCount).toBe(before);
  });

  // UpdateArticle (title, description, body) cannot carry tagList: a PUT that says nothing of it keeps it.
  // Before, the replace dropped it, and verify's lifecycle found the article gone from its tag's list.
  it('keeps what an update’s body cannot carry: the tags stay, and the article stays in its tag’s list', async () => {
    const registered = await call('POST', '/users', { user: { username: 'kit', email: 'kit@example.com', password: 'pw-secret-2' } });
    const { token } = (registered.json as { user: User }).user;
    const created = await call('POST', '/articles', { article: { title: 'Ferns', description: 'd', body: 'b', tagList: ['f-kept'] } }, token);
    expect(created.status, created.text).toBe(201);
    const { slug } = (created.json as { article: Article }).article;
    const updated = await conforming('PUT', '/articles/{slug}', `/articles/${slug}`, { article: {} }, token);
    expect(updated.status, updated.text).toBe(200);
    expect((updated.json as { article: Article }).article.tagList).toEqual(['f-kept']);
    const listed = await conforming('GET', '/articles', '/articles?tag=f-kept', undefined, token);
    expect((listed.json as { articles: Article[] }).articles.map((article) => article.tagList)).toEqual([['f-kept']]);
  });
});
