/**
 * Long synchronous work hands the event loop back now and then, so that a SIGINT or SIGTERM is
 * heard while it goes on: a signal's handler runs only between tasks. Compiling every operation's
 * schemas and planning DigitalOcean's 545 operations held the loop 21 s and 7 s, and a SIGTERM sent
 * then ended the run 72 s later.
 */

/** How long work may hold the loop between breaths: a signal is heard within about this. */
export const BREATH_MS = 20;

/** A function to call between units of work: it yields to the event loop once BREATH_MS have passed since the last time it did. */
export function breather(sliceMs = BREATH_MS, clock: () => number = () => performance.now()): () => Promise<void> {
  let last = clock();
  return async () => {
    if (clock() - last < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = clock();
  };
}
