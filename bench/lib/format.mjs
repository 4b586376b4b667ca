// @ts-check
// Number formatting and progress output shared by the bench modules.

/** Progress goes to stderr; the report goes to stdout. */
export const log = (msg) => process.stderr.write(msg);

export function fmt(n, digits = 1) {
  if (n === undefined || n === null || Number.isNaN(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const indent = (s) =>
  s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
