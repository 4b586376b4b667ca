/**
 * The integer formats: int64 and int32 bounds, the one reader of an integer written as text (a
 * path segment, a seed file's string, a log record), and the one rule for a bigint that a JS
 * number holds exactly. There used to be three readers and eight narrowings, and they disagreed.
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;

/** Canonical decimal: an optional "-", then no leading zero (so one text per value, "-0" excluded). */
const DECIMAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,18})$/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * The int64 `text` writes in canonical decimal, or undefined. Refused: leading zeros ("007", which
 * some read as octal), "-0", a "+" sign, spaces, other bases ("0x1f", which BigInt alone would take),
 * and anything outside int64. At most 19 digits, so a huge text never costs a BigInt conversion.
 */
export function parseInt64(text: string): bigint | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  return isInt64(value) ? value : undefined;
}

/** A bigint within ±(2^53 − 1) becomes the number it is; a larger one stays a bigint, never rounded. */
export function narrow(value: bigint): number | bigint {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
}
