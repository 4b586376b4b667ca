/** Exact integer arithmetic on bigint for integer ranges and multipleOf (a double loses digits past 2^53). */

/** The largest integer not above `v` (a finite double). */
export function bigFloor(v: number): bigint {
  return BigInt(Math.floor(v));
}

/** The smallest integer not below `v` (a finite double). */
export function bigCeil(v: number): bigint {
  return BigInt(Math.ceil(v));
}

/** a / b rounded towards −∞ (bigint division truncates towards zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** a / b rounded towards +∞. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q;
}

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}
