/** The slugs a collection has issued (src/handlers/resource/issued-slugs.ts): remembered per collection, bounded in memory. */
import { describe, expect, it } from 'vitest';
import { IssuedSlugs } from '../../src/handlers/resource/issued-slugs.js';

const LONG = 'x'.repeat(1000);

describe('issued slugs', () => {
  it('remembers a slug per collection', () => {
    const issued = new IssuedSlugs();
    issued.add('["shared"]', 'how-to-train-your-dragon');
    expect(issued.has('["shared"]', 'how-to-train-your-dragon')).toBe(true);
    expect(issued.has('["shared","7"]', 'how-to-train-your-dragon')).toBe(false);
  });

  it('past its bound (4 M characters), forgets the collections used longest ago, keeping the recent ones', () => {
    const issued = new IssuedSlugs();
    issued.add('old', 'first');
    issued.add('recent', 'kept');
    for (let n = 0; n < 3000; n++) issued.add('busy', `${LONG}-${n}`);
    issued.add('recent', 'kept-too');
    for (let n = 0; n < 2000; n++) issued.add('busier', `${LONG}-${n}`);
    expect(issued.has('old', 'first')).toBe(false);
    expect(issued.has('busy', `${LONG}-2999`)).toBe(false);
    expect(issued.has('recent', 'kept')).toBe(true);
    expect(issued.has('busier', `${LONG}-1999`)).toBe(true);
  });

  it('bounds one collection alone too: its oldest slugs go first', () => {
    const issued = new IssuedSlugs();
    for (let n = 0; n < 5000; n++) issued.add('solo', `${LONG}-${n}`);
    expect(issued.has('solo', `${LONG}-0`)).toBe(false);
    expect(issued.has('solo', `${LONG}-4999`)).toBe(true);
  });
});
