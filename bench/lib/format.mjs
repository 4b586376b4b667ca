// @ts-check
// Number formatting and progress output shared by the bench modules.

/** Progress goes to stderr; the report goes to stdout. @param {string} msg */
export const log = (msg) => process.stderr.write(msg);

/** A number with `digits` decimals and thousands separators; '-' for none. @param {number | null | undefined} n */
export function fmt(n, digits = 1) {
  if (n === undefined || n === null || Number.isNaN(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Each line of `s` indented and marked as quoted output. @param {string} s */
export const indent = (s) =>
  s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
