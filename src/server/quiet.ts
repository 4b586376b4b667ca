/**
 * Lulls in a server's traffic, for work that can wait (compiling validators, loading prism's mocker
 * after a start): a start's first requests are answered first instead of waiting on that work's
 * synchronous parts.
 */
import type { Server } from 'node:http';

export interface Lulls {
  /** Resolves once no request is in flight and none has ended or arrived for the quiet time. */
  readonly idle: () => Promise<void>;
  /** Stops watching the server's requests (the watch costs a listener per request). */
  readonly stop: () => void;
}

/** From now on: listening counts as activity, since a client's first request usually follows at once. */
export function lullsOf(server: Server, quietMs: number): Lulls {
  let inFlight = 0;
  let lastActivity = performance.now();
  const ended = () => {
    inFlight--;
    lastActivity = performance.now();
  };
  const onRequest = (_request: unknown, response: { once(event: 'close', listener: () => void): unknown }) => {
    inFlight++;
    lastActivity = performance.now();
    response.once('close', ended);
  };
  server.on('request', onRequest);
  const idle = async (): Promise<void> => {
    for (;;) {
      const wait = inFlight > 0 ? quietMs : lastActivity + quietMs - performance.now();
      if (wait <= 0) return;
      // Unreferenced: waiting for a lull never keeps a closed server's process alive.
      await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
    }
  };
  return { idle, stop: () => void server.off('request', onRequest) };
}

/** Runs `steps` one per turn of the event loop, each in a lull: a request arriving meanwhile waits for one step at most. */
export async function inLulls(idle: () => Promise<void>, steps: Iterable<() => void>, still: () => boolean = () => true): Promise<void> {
  for (const step of steps) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await idle();
    if (!still()) return;
    try {
      step();
    } catch {
      // It fails again at the first request that needs it, which answers the error as it always did.
    }
  }
}
