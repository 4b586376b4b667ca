/** A list page's URL in a Link header (answer-headers.ts): absolute for a real Host, relative for one a client made up. */
import { describe, expect, it } from 'vitest';
import { pageUrl } from '../../src/handlers/resource/answer-headers.js';

describe('pageUrl', () => {
  it('sets the one parameter, keeps the others, and drops it where asked', () => {
    expect(pageUrl('127.0.0.1:4010', '/posts', '_page=1&_limit=2&q=a%20b', '_page', '2')).toBe('http://127.0.0.1:4010/posts?_page=2&_limit=2&q=a+b');
    expect(pageUrl('api.test', '/items', 'cursor=abc&limit=5', 'cursor', undefined)).toBe('http://api.test/items?limit=5');
    expect(pageUrl('[::1]:8080', '/items', undefined, 'offset', '0')).toBe('http://[::1]:8080/items?offset=0');
  });

  it('leaves out a Host that is no host: nothing the client made up reaches the header', () => {
    for (const host of ['x>;rel="evil"', 'café', '', 'a b', undefined])
      expect(pageUrl(host, '/items', 'limit=1', 'offset', '1')).toBe('/items?limit=1&offset=1');
  });
});
