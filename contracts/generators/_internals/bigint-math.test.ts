import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ceilDiv, floorDiv, gcd, lcm } from './bigint-math.js';

// bigint division truncates towards zero; these round the other ways for every sign combination.
describe('bigint maths', () => {
  const small = fc.integer({ min: -1000, max: 1000 });
  const nonZero = small.filter((n) => n !== 0);

  it('floorDiv and ceilDiv agree with Math.floor / Math.ceil of the exact quotient', () => {
    fc.assert(
      fc.property(small, nonZero, (a, b) => {
        expect(floorDiv(BigInt(a), BigInt(b))).toBe(BigInt(Math.floor(a / b)));
        expect(ceilDiv(BigInt(a), BigInt(b))).toBe(BigInt(Math.ceil(a / b)));
      }),
    );
  });

  it('gcd and lcm', () => {
    expect(gcd(-12n, 18n)).toBe(6n);
    expect(gcd(0n, 5n)).toBe(5n);
    expect(lcm(4n, 6n)).toBe(12n);
    expect(lcm(1n, 1000n)).toBe(1000n);
  });
});
