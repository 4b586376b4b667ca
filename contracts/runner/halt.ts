/**
 * Why a run ends before it has sent everything: its time budget is spent (--time-budget-ms) or its
 * caller asked (an AbortSignal: the CLI's SIGINT and SIGTERM). Once halted, the run's client sends
 * nothing more and drops what is in flight (haltable), so the run reaches its report at once, and
 * the report says it is incomplete: never a pass.
 */
import type { HttpClient } from '../client/http-client.js';

export interface Halt {
  /** Why the run was halted; undefined while it goes on. */
  reason(): string | undefined;
  /** Called once, when the run is halted. */
  onHalt(listener: () => void): void;
  /** Aborted, with the reason as its message, when the run is halted: for the reading of the document, which takes a signal. */
  readonly signal: AbortSignal;
  /** Every case was sent: the budget no longer halts (shrinking is limited by what is left of it instead); a signal still does. */
  endBudget(): void;
  /** Stops the budget's timer and the signal's listener (the run is over). */
  dispose(): void;
}

/** `budgetMs` counts from `startedAt` (performance.now()): loading the document is part of the run's time. */
export function haltOf(signal: AbortSignal | undefined, budgetMs: number | undefined, startedAt = performance.now()): Halt {
  let reason: string | undefined;
  const listeners: Array<() => void> = [];
  const aborter = new AbortController();
  const halt = (why: string): void => {
    if (reason !== undefined) return;
    reason = why;
    aborter.abort(new Error(why));
    for (const listener of listeners.splice(0)) listener();
  };
  const timer =
    budgetMs === undefined
      ? undefined
      : setTimeout(() => halt(`the time budget of ${seconds(budgetMs)} was spent (--time-budget-ms)`), Math.max(0, budgetMs - (performance.now() - startedAt)));
  const onAbort = (): void => halt(abortReason(signal));
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    reason: () => reason,
    signal: aborter.signal,
    onHalt: (listener) => {
      if (reason !== undefined) listener();
      else listeners.push(listener);
    },
    endBudget: () => clearTimeout(timer),
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Why `signal` halted the run ("interrupted by SIGTERM"). */
export function abortReason(signal: AbortSignal | undefined): string {
  return signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason ?? 'the run was aborted');
}

/** The client, which once the run is halted sends nothing more and drops what is in flight (its answers are not judged: see run.ts). */
export function haltable(client: HttpClient, halt: Halt): HttpClient {
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= client.close());
  halt.onHalt(() => void close().catch(() => undefined));
  return {
    ...client,
    send: async (request, overrides) => {
      const why = halt.reason();
      if (why !== undefined) return { headers: {}, body: '', durationMs: 0, error: { kind: 'connection', message: `not sent: ${why}` } };
      return client.send(request, overrides);
    },
    close,
  };
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
