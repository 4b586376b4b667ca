import { describe, expect, it } from 'vitest';
import { cryptoRandom64, freshIdWithin } from './ids.js';

describe('fresh ids sized to the identifier', () => {
  it('an int32 identifier gets int32 ids (never one the target must refuse as out of range)', () => {
    const space = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
    for (let i = 0; i < 2000; i += 1) {
      const id = freshIdWithin(cryptoRandom64, space, i % 2 === 0);
      expect(id >= space.min && id <= space.max, String(id)).toBe(true);
    }
  });

  it('a space narrowed below 2^53 (a target that refuses larger ids) keeps every id below it', () => {
    const space = { min: -(2n ** 53n - 1n), max: 2n ** 53n - 1n };
    const ids = Array.from({ length: 2000 }, (_, i) => freshIdWithin(cryptoRandom64, space, i % 3 === 0));
    expect(ids.every((id) => id >= space.min && id <= space.max)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a full int64 space keeps the fresh ids above 2^61 (far from any id a person types)', () => {
    const id = freshIdWithin(cryptoRandom64, { min: -(2n ** 63n), max: 2n ** 63n - 1n });
    expect(id >= 2n ** 61n).toBe(true);
  });
});

describe('cryptoRandom64', () => {
  it('draws distinct 64-bit values across refills of its byte pool, using all 64 bits', () => {
    const values = Array.from({ length: 3000 }, () => cryptoRandom64());
    expect(new Set(values).size).toBe(values.length);
    expect(values.every((value) => value >= 0n && value < 2n ** 64n)).toBe(true);
    expect(values.some((value) => value >= 2n ** 63n)).toBe(true);
  });
});
