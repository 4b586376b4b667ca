/**
 * The server-made fields plan (src/core/resources/server-fields.ts) on small schemas: which
 * properties the server makes and how, from the document's own signals, and the `fields` override.
 */
import { describe, expect, it } from 'vitest';
import type { Identifier } from '../../src/core/resources/model.js';
import { checkOverride } from '../../src/core/resources/overrides.js';
import { planServerFields } from '../../src/core/resources/server-fields.js';
import { numbered, slugify } from '../../src/core/resources/slug.js';

const ID: Identifier = { parameter: 'id', property: 'id', assignedBy: 'server', type: { kind: 'integer', minimum: 1n, maximum: 2n ** 63n - 1n } };
const SLUG_ID: Identifier = { parameter: 'slug', property: 'slug', assignedBy: 'server', type: { kind: 'string' } };
const NEW_ARTICLE = { type: 'object', required: ['title', 'body'], properties: { title: { type: 'string' }, body: { type: 'string' } } };
const ARTICLE = {
  type: 'object',
  required: ['slug', 'title', 'body', 'createdAt', 'updatedAt', 'favoritesCount', 'favorited'],
  properties: {
    slug: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    favoritesCount: { type: 'integer' },
    favorited: { type: 'boolean' },
  },
};

describe('server-made fields: the plan', () => {
  it('reads the Conduit article: slug from the title, times, counter, flag', () => {
    expect(planServerFields({ path: '/articles', createSchema: NEW_ARTICLE, answers: [ARTICLE], identifier: SLUG_ID })).toEqual([
      { property: 'slug', kind: 'slug', from: 'title' },
      { property: 'createdAt', kind: 'created-time' },
      { property: 'updatedAt', kind: 'updated-time' },
      { property: 'favoritesCount', kind: 'counter' },
      { property: 'favorited', kind: 'flag' },
    ]);
  });

  it('knows snake_case and other spellings of the times and counters, and plain-string times', () => {
    const answer = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        created_at: { type: 'string', format: 'date-time' },
        dateModified: { type: 'string' },
        comments_count: { type: 'integer', minimum: 0 },
        born: { type: 'string', format: 'date' },
      },
    };
    const create = { type: 'object', properties: { name: { type: 'string' }, born: { type: 'string', format: 'date' } } };
    expect(planServerFields({ path: '/people', createSchema: create, answers: [answer], identifier: ID })).toEqual([
      { property: 'created_at', kind: 'created-time' },
      { property: 'dateModified', kind: 'updated-time' },
      { property: 'comments_count', kind: 'counter' },
    ]);
  });

  it('makes readOnly properties, even ones the create body declares, and leaves what the client sends', () => {
    const schema = {
      type: 'object',
      required: ['title', 'status'],
      properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' }, status: { type: 'string', readOnly: true, enum: ['new', 'done'] } },
    };
    expect(planServerFields({ path: '/tasks', createSchema: schema, answers: [schema], identifier: ID })).toEqual([{ property: 'status', kind: 'default' }]);
  });

  it('makes an optional answer-only property only when a rule or a default says the server sets it', () => {
    const answer = {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' }, note: { type: 'string' }, level: { type: 'integer', default: 3 }, tag: { type: 'string', example: 'x' } },
    };
    expect(planServerFields({ path: '/things', createSchema: { type: 'object', properties: {} }, answers: [answer], identifier: ID })).toEqual([
      { property: 'code', kind: 'placeholder' },
      { property: 'level', kind: 'default' },
    ]);
  });

  it('falls back, saying why, where a slug cannot be made or a counter cannot be 0', () => {
    const answer = {
      type: 'object',
      required: ['slug', 'hitCount'],
      properties: { slug: { type: 'string', pattern: '^[A-Z]+$' }, hitCount: { type: 'integer', minimum: 1 } },
    };
    expect(planServerFields({ path: '/pages', createSchema: NEW_ARTICLE, answers: [answer], identifier: ID })).toEqual([
      { property: 'slug', kind: 'placeholder', note: 'its pattern or length does not admit slugs (lower-case words and hyphens)' },
      { property: 'hitCount', kind: 'placeholder', note: 'its bounds do not admit 0' },
    ]);
    const untitled = { type: 'object', properties: { body: { type: 'string' } } };
    expect(
      planServerFields({
        path: '/pages',
        createSchema: untitled,
        answers: [{ type: 'object', required: ['slug'], properties: { slug: { type: 'string' } } }],
        identifier: ID,
      }),
    ).toEqual([{ property: 'slug', kind: 'placeholder', note: 'no title or name in the create body to make a slug from' }]);
  });

  it('leaves a server-assigned integer or uuid identifier to the allocation, and a client-assigned one to the client', () => {
    const answer = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    expect(
      planServerFields({ path: '/pets', createSchema: { type: 'object', properties: { name: { type: 'string' } } }, answers: [answer], identifier: ID }),
    ).toEqual([]);
    const client: Identifier = { ...ID, assignedBy: 'client' };
    expect(planServerFields({ path: '/pets', createSchema: answer, answers: [answer], identifier: client })).toEqual([]);
  });

  it('takes the fields override over inference, checked against the schemas', () => {
    const answer = { ...ARTICLE, properties: { ...ARTICLE.properties, publishedAt: { type: 'string', format: 'date-time' }, headline: { type: 'string' } } };
    const create = { ...NEW_ARTICLE, properties: { ...NEW_ARTICLE.properties, headline: { type: 'string' } } };
    const plan = planServerFields({
      path: '/articles',
      createSchema: create,
      answers: [answer],
      identifier: SLUG_ID,
      override: { slug: { slugFrom: 'headline' }, publishedAt: 'created-time', favorited: 'none' },
    });
    expect(plan.filter((field) => field.note === 'config')).toEqual([
      { property: 'slug', kind: 'slug', from: 'headline', note: 'config' },
      { property: 'publishedAt', kind: 'created-time', note: 'config' },
    ]);
    expect(plan.map((field) => field.property)).not.toContain('favorited');
  });

  it('refuses an override naming what the document lacks, or a rule its type cannot hold, with a clear error', () => {
    const plan = (override: Parameters<typeof planServerFields>[0]['override']) => () =>
      planServerFields({ path: '/articles', createSchema: NEW_ARTICLE, answers: [ARTICLE], identifier: SLUG_ID, override });
    expect(plan({ nope: 'counter' })).toThrow(
      `the config file's resources["/articles"]: "fields": "nope" is not a property of /articles's items (answers have: slug, title, body, createdAt, updatedAt, favoritesCount, favorited)`,
    );
    expect(plan({ favorited: 'counter' })).toThrow(`"fields": "favorited" is boolean; "counter" makes integer or number values`);
    expect(plan({ slug: { slugFrom: 'subtitle' } })).toThrow(
      `"fields": "slug": { "slugFrom": "subtitle" } names no string property of the create body (it has: title, body)`,
    );
    const origin = { source: 'config', where: `the config file's resources["/articles"]` } as const;
    expect(() => checkOverride({ fields: { slug: 'from-title' } }, origin)).toThrow(
      `the config file's resources["/articles"]: "fields": "slug" cannot be "from-title" (one of "created-time", "updated-time", "counter", "flag", "default", "placeholder", "none" or { "slugFrom": "<property>" })`,
    );
    expect(() => checkOverride({ fields: ['slug'] }, origin)).toThrow(`"fields" cannot be ["slug"]`);
  });
});

describe('slugs', () => {
  it('are lower-case ASCII words joined by hyphens, numbered within a length', () => {
    expect(slugify('How to Train Your Dragon')).toBe('how-to-train-your-dragon');
    expect(slugify('  Crème brûlée: part #2!  ')).toBe('creme-brulee-part-2');
    expect(slugify('🐉')).toBe('untitled');
    expect(numbered('how-to-train-your-dragon', 1)).toBe('how-to-train-your-dragon');
    expect(numbered('how-to-train-your-dragon', 2)).toBe('how-to-train-your-dragon-2');
    expect(numbered('how-to-train-your-dragon', 12, 12)).toBe('how-to-tr-12');
    expect(numbered('how-to-train', 3, 10)).toBe('how-to-t-3');
  });
});
