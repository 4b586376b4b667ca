/**
 * Server-made fields over real sockets (articles.yaml, the Conduit style without envelopes): the
 * client sends {title, body}; the stand-in makes a unique slug (the item path's identifier),
 * createdAt/updatedAt, a counter and a flag, keeps them across changes and moves updatedAt on.
 */
import { describe, expect, it } from 'vitest';
import { send, serverFor, type Reply } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = new URL('../fixtures/documents/articles.yaml', import.meta.url).pathname;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Article {
  readonly slug: string;
  readonly title: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly favoritesCount: number;
  readonly favorited: boolean;
}

describe('articles: server-made fields', () => {
  const server = serverFor({ spec: SPEC });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const conforms = (method: string, path: string, reply: Reply) => expectConforms(server.current.document, method, path, reply);

  it('makes a slug from the title, unique, and the times, counter and flag', async () => {
    const first = await call('POST', '/articles', { title: 'How to Train Your Dragon', body: 'Gently.' });
    expect(first.status, first.text).toBe(201);
    conforms('post', '/articles', first);
    const article = first.json as Article;
    expect(article).toMatchObject({ slug: 'how-to-train-your-dragon', title: 'How to Train Your Dragon', favoritesCount: 0, favorited: false });
    expect(article.createdAt).toMatch(ISO);
    expect(article.updatedAt).toBe(article.createdAt);
    expect(Math.abs(Date.parse(article.createdAt) - Date.now())).toBeLessThan(60_000);

    const second = await call('POST', '/articles', { title: 'How to train your dragon!', body: 'Again.' });
    expect(second.status, second.text).toBe(201);
    conforms('post', '/articles', second);
    expect((second.json as Article).slug).toBe('how-to-train-your-dragon-2');

    const read = await call('GET', '/articles/how-to-train-your-dragon-2');
    expect(read.status, read.text).toBe(200);
    conforms('get', '/articles/{slug}', read);
    expect(read.json).toEqual(second.json);
    expect((await call('GET', '/articles/how-to-train-your-dragon')).json).toEqual(article);
  });

  it('makes lower-case ASCII slugs from any text', async () => {
    const accented = await call('POST', '/articles', { title: 'Crème Brûlée — Part 2', body: '' });
    expect((accented.json as Article).slug).toBe('creme-brulee-part-2');
    const none = await call('POST', '/articles', { title: '日本語', body: '' });
    expect(none.status, none.text).toBe(201);
    conforms('post', '/articles', none);
    expect((none.json as Article).slug).toBe('untitled');
  });

  it('keeps createdAt, the slug and the counters on update and replace, and moves updatedAt on', async () => {
    const created = (await call('POST', '/articles', { title: 'Changing times', body: 'v1' })).json as Article;
    const patched = await call('PATCH', `/articles/${created.slug}`, { body: 'v2', title: 'Changed times' });
    expect(patched.status, patched.text).toBe(200);
    conforms('patch', '/articles/{slug}', patched);
    const afterPatch = patched.json as Article;
    expect(afterPatch).toMatchObject({ slug: created.slug, title: 'Changed times', body: 'v2', createdAt: created.createdAt, favoritesCount: 0 });
    expect(afterPatch.updatedAt).toMatch(ISO);
    expect(Date.parse(afterPatch.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));

    const replaced = await call('PUT', `/articles/${created.slug}`, { title: 'Replaced', body: 'v3' });
    expect(replaced.status, replaced.text).toBe(200);
    conforms('put', '/articles/{slug}', replaced);
    const afterPut = replaced.json as Article;
    expect(afterPut).toMatchObject({ slug: created.slug, title: 'Replaced', body: 'v3', createdAt: created.createdAt, favorited: false });
    expect(Date.parse(afterPut.updatedAt)).toBeGreaterThan(Date.parse(afterPatch.updatedAt));
    expect((await call('GET', `/articles/${created.slug}`)).json).toEqual(afterPut);
  });

  it('never issues the slug of a deleted article again: an old link answers 404, not another article', async () => {
    const first = (await call('POST', '/articles', { title: 'Short-lived', body: '' })).json as Article;
    expect(first.slug).toBe('short-lived');
    expect((await call('DELETE', '/articles/short-lived')).status).toBe(204);
    const again = await call('POST', '/articles', { title: 'Short-lived', body: '' });
    expect(again.status, again.text).toBe(201);
    expect((again.json as Article).slug).toBe('short-lived-2');
    expect((await call('GET', '/articles/short-lived')).status).toBe(404);
  });

  it('lists every article valid against the document', async () => {
    const list = await call('GET', '/articles');
    expect(list.status).toBe(200);
    conforms('get', '/articles', list);
    const slugs = (list.json as Article[]).map((article) => article.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});
