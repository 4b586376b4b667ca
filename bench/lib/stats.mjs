// @ts-check
// The statistics every bench script reports: one median, so two scripts never read the same samples differently.

/** The median: the middle sample, or the mean of the two middle ones; NaN for no samples. @param {readonly number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  const upper = /** @type {number} */ (sorted[middle]); // within a non-empty list
  const lower = sorted[middle - 1] ?? upper; // read only for an even count (at least 2)
  return sorted.length % 2 === 1 ? upper : (lower + upper) / 2;
}
