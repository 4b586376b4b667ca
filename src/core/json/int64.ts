/**
 * int64, the format of Plant ids: its bounds and the one reader of an id written as text (a path
 * segment, a seed file's string, a log record). There used to be three, and they disagreed on "007".
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Canonical decimal: an optional "-", then no leading zero (so one text per value, "-0" excluded). */
const DECIMAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,18})$/;

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
