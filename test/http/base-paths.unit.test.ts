/** The servers' base paths serve answers under (src/core/openapi/base-paths.ts). */
import { describe, expect, it } from 'vitest';
import { basePathOf, basePathsOf } from '../../src/core/openapi/base-paths.js';
import type { Operation } from '../../src/core/openapi/operation.js';

describe('basePathOf', () => {
  it("an absolute URL's path, a relative URL as a path, without a trailing slash", () => {
    expect(basePathOf('https://petstore3.swagger.io/api/v3')).toBe('/api/v3');
    expect(basePathOf('http://petstore.swagger.io/v1/')).toBe('/v1');
    expect(basePathOf('/api/v3')).toBe('/api/v3');
    expect(basePathOf('v2')).toBe('/v2');
  });

  it('none for a server at the root', () => {
    for (const url of ['http://127.0.0.1:4010', 'https://example.com/', '/', '.', '']) expect(basePathOf(url)).toBeUndefined();
  });

  it('variables take their defaults; one without a default leaves the path unknown', () => {
    expect(basePathOf('{scheme}://developer.uspto.gov/ds-api', { scheme: { default: 'https' } })).toBe('/ds-api');
    expect(basePathOf('https://{host}/{version}/api', { host: { default: 'x.example' }, version: { default: 'v2' } })).toBe('/v2/api');
    expect(basePathOf('https://x.example/{version}', {})).toBeUndefined();
  });
});

describe('basePathsOf', () => {
  it('the distinct base paths of all operations, longest first', () => {
    const withServers = (...urls: string[]) => ({ servers: urls.map((url, index) => ({ id: String(index), url })) }) as unknown as Operation;
    expect(basePathsOf([withServers('https://a.example/v1', 'https://b.example/api/v3'), withServers('https://a.example/v1/'), withServers()])).toEqual([
      '/api/v3',
      '/v1',
    ]);
  });
});
