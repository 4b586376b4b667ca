/** list-filter-honoured on a contains filter (`?tag=ferns` over tagList, ListParameters.filterContains): kept only where the array holds a value. */
import { describe, expect, it } from 'vitest';
import type { CheckContext } from './index.js';
import { answer, exchange } from './exchanges.test-support.js';
import { listFilterHonoured } from './list-filter-honoured.js';

const context = {} as CheckContext;
const asked = (contains: boolean) => ({
  role: 'lifecycle' as const,
  state: {
    step: 'list-filtered' as const,
    filter: {
      parameter: 'tag',
      property: 'tagList',
      ...(contains ? { contains: true } : {}),
      values: ['ferns'],
      matching: [{ property: 'slug', text: '"a"' }],
    },
  },
});
const listing = (...articles: Array<{ slug: string; tagList: string[] }>) => answer(200, { articles, articlesCount: articles.length });

describe('list-filter-honoured, contains', () => {
  it('passes a list whose every article holds the tag, the matching one among them', () => {
    const verdict = listFilterHonoured.judge(exchange(asked(true), listing({ slug: 'a', tagList: ['care', 'ferns'] })), context);
    expect(verdict?.outcome).toBe('pass');
  });

  it('fails an article listed without the tag (the filter ignored)', () => {
    const verdict = listFilterHonoured.judge(exchange(asked(true), listing({ slug: 'a', tagList: ['ferns'] }, { slug: 'b', tagList: ['care'] })), context);
    expect(verdict?.outcome).toBe('fail');
  });

  it('fails the matching article left out', () => {
    const verdict = listFilterHonoured.judge(exchange(asked(true), listing()), context);
    expect(verdict?.outcome).toBe('fail');
  });

  it('without the model fact, an array is no equal of a string: the same list fails', () => {
    const verdict = listFilterHonoured.judge(exchange(asked(false), listing({ slug: 'a', tagList: ['ferns'] })), context);
    expect(verdict?.outcome).toBe('fail');
  });
});
