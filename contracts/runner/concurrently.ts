/**
 * Runs `work` over `items` (an array, or a lazy iterable drawn only as workers free up) with at
 * most `limit` in flight, started in order; rejects on the first error. `lead`, where given, is
 * work already under way that holds one of the `limit` slots until it settles.
 */
export async function concurrently<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  lead?: Promise<unknown>,
): Promise<void> {
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
  const slots = Math.max(1, limit);
  if (lead === undefined) {
    await Promise.all(Array.from({ length: slots }, worker));
    return;
  }
  const afterLead = lead.then(worker, (error: unknown) => {
    failed = true;
    throw error;
  });
  await Promise.all([...Array.from({ length: slots - 1 }, worker), afterLead]);
}
