/** How a lifecycle list pages (steps.ts): the limit it sends, and the page it is answered with. */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import type { Resource } from '../../../src/core/resources/model.js';
import { listLimits, listPath, pagingOf, UNDECLARED_PAGE } from './steps.js';

const resource = { list: { limit: 'limit', filters: [] } } as unknown as Resource;
const listOf = (schema: object): Operation =>
  ({
    method: 'get',
    path: '/articles',
    request: {
      query: [
        { name: 'limit', schema },
        { name: 'offset', schema: { type: 'integer' } },
      ],
    },
  }) as unknown as Operation;
const template = { path: '/articles?limit=7&offset=2&token=t' } as never;

describe('pagingOf and listLimits', () => {
  it('asks a complete list for the most the limit allows, and is answered that page', () => {
    const paging = pagingOf(resource, listOf({ type: 'integer', maximum: 100, default: 20 }));
    expect(paging).toEqual({ limitName: 'limit', maxLimit: 100n, defaultLimit: 20n });
    expect(listLimits(paging, { kind: 'complete' })).toEqual({ sent: 100n, page: 100n });
    expect(listLimits(paging, { kind: 'small', limit: 2n })).toEqual({ sent: 2n, page: 2n });
    expect(listPath(listOf({}), template, paging, { kind: 'complete' }, undefined)).toBe('/articles?token=t&limit=100');
  });

  it('without a maximum sends no limit, and is answered the declared default page (RealWorld’s 20)', () => {
    const paging = pagingOf(resource, listOf({ type: 'integer', default: 20 }));
    expect(listLimits(paging, { kind: 'complete' })).toEqual({ page: 20n });
    expect(listPath(listOf({}), template, paging, { kind: 'complete' }, undefined)).toBe('/articles?token=t');
  });

  it('without a maximum or a default, assumes the smallest page servers answer unasked (Gitea answers 30)', () => {
    expect(listLimits(pagingOf(resource, listOf({ type: 'integer' })), { kind: 'complete' })).toEqual({ page: UNDECLARED_PAGE });
    expect(listLimits(pagingOf(resource, listOf({ type: 'integer', default: 'twenty' })), { kind: 'complete' })).toEqual({ page: UNDECLARED_PAGE });
  });

  it('without a limit parameter, knows no page: the document declares no paging', () => {
    expect(listLimits(pagingOf({ list: { filters: [] } } as unknown as Resource, listOf({ type: 'integer', default: 20 })), { kind: 'complete' })).toEqual({});
  });
});
