/**
 * Runs `work` over `items` (an array, or a lazy iterable drawn only as workers free up) with at
 * most `limit` in flight, started in order; rejects on the first error.
 */
export async function concurrently<T>(items: Iterable<T>, limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed) {
      const step = iterator.next();
      if (step.done === true) return;
      const index = next++;
      try {
        await work(step.value, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}
