/**
 * An optional header of array or object type that a request leaves out is no error: prism's simple
 * reader throws on an absent one, and Eclipse Ditto's optional put-metadata header (an array) made
 * every PUT of serve a 500 before an absent parameter was left unread.
 */
import type { IHttpParam } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { compileParameterCheck } from '../../src/core/prism/adapter.js';

const headers = [
  { id: 'h-meta', name: 'put-metadata', style: 'simple', schema: { type: 'array', items: { type: 'string' }, maxItems: 2 } },
  { id: 'h-pair', name: 'X-Pair', style: 'simple', schema: { type: 'object', properties: { a: { type: 'integer' } } } },
] as unknown as IHttpParam[];

describe('an optional array or object header', () => {
  const check = compileParameterCheck(headers, 'header', {});

  it('is no error when left out', () => {
    expect(check({})).toBeUndefined();
    expect(check({ 'content-type': 'application/json' })).toBeUndefined();
  });

  it('is still read and judged when sent', () => {
    expect(check({ 'Put-Metadata': 'a,b' })).toBeUndefined();
    expect(check({ 'put-metadata': 'a,b,c' })?.[0]?.message).toMatch(/must NOT have more than 2 items/);
    expect(check({ 'x-pair': 'a,x' })?.[0]?.message).toMatch(/must be integer/);
  });
});
