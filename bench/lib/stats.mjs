// @ts-check
// The statistics every bench script reports: one median, so two scripts never read the same samples differently.

/** The median: the middle sample, or the mean of the two middle ones; NaN for no samples. @param {readonly number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1
    ? /** @type {number} */ (sorted[middle])
    : /** @type {number} */ (sorted[middle - 1] + /** @type {number} */ (sorted[middle])) / 2;
}
