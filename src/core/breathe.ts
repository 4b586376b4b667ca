/**
 * Long synchronous work hands the event loop back now and then, so that a SIGINT or SIGTERM is
 * heard while it goes on: a signal's handler runs only between tasks. Compiling every operation's
 * schemas and planning DigitalOcean's 545 operations held the loop 21 s and 7 s, and a SIGTERM sent
 * then ended the run 72 s later; building its operations from the document held it 4 s more.
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

/** A breath (breather), then the signal's reason thrown once it is aborted: long work that may be stopped calls it between its units. */
export function pauseFor(signal: AbortSignal): () => Promise<void> {
  const breathe = breather();
  return async () => {
    await breathe();
    signal.throwIfAborted();
  };
}

/**
 * One breath now, then the signal's reason thrown once it is aborted: after one long synchronous
 * step (parsing a document: 0.4 s of a 7 MB one), where a breather made just before would not yet
 * yield, so a budget's timer that fell due during it is heard.
 */
export async function breatheNow(signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  signal.throwIfAborted();
}
