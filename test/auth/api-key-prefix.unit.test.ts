/** The prefix an API key travels behind in its header, read from the scheme's extension or description. */
import { describe, expect, it } from 'vitest';
import { apiKeyPrefix } from '../../src/core/openapi/api-key-prefix.js';

const header = (description: string | undefined, extensions?: Record<string, unknown>) => ({
  in: 'header' as const,
  name: 'Authorization',
  ...(description === undefined ? {} : { description }),
  ...(extensions === undefined ? {} : { extensions }),
});

describe('apiKeyPrefix', () => {
  it.each([
    ["RealWorld Conduit's form block", "The following format must be in the 'Authorization' header :\n\n    Token xxxxxx.yyyyyyy.zzzzzz\n", 'Token '],
    ['the header named with a value', 'Send `Authorization: Token abc123`.', 'Token '],
    ['a placeholder in angle brackets', 'Use "Bearer <token>" as the value.', 'Bearer '],
    ['a JWT-shaped placeholder', 'e.g. JWT eyJhbGc.eyJzdWIi.SflKxw', 'JWT '],
    ['a key alone', 'Your API key, as issued on the dashboard.', undefined],
    ['prose only', 'A valid JWT token after registering or logging in, in the Authorization header.', undefined],
    ['prose after the header name', "the 'Authorization' header: must hold the key", undefined],
  ])('%s', (_label, description, prefix) => {
    expect(apiKeyPrefix(header(description))).toBe(prefix);
  });

  it('takes x-plantstore-prefix first, and "" for none', () => {
    expect(apiKeyPrefix(header('Token xxxxx', { 'x-plantstore-prefix': 'ApiKey' }))).toBe('ApiKey ');
    expect(apiKeyPrefix(header('Token xxxxx', { 'x-plantstore-prefix': '' }))).toBeUndefined();
  });

  it('only for a header: a query or cookie key travels alone', () => {
    expect(apiKeyPrefix({ in: 'query', name: 'api_key', description: 'Token xxxxx' })).toBeUndefined();
  });
});
