/**
 * Every way a `plantstore verify` run can end gives a verdict, reports and a non-zero exit unless the
 * target conformed: SIGINT/SIGTERM/SIGHUP halt the run (it reports what it judged, exit 128+N), an
 * uncaught exception or rejection, or a run whose work drained without an answer (a promise never
 * settled), ends it with "no verdict" (exit 3). Without this, the last case ended with exit 0 and
 * no output: a CI job read a crashed run as a pass (issue 17).
 */
import { writeFileSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { EXIT_CODES } from '../core/errors.js';
import type { VerifyReport } from '../../contracts/report.js';

export interface Ending {
  /** Aborted at the first signal: the run halts and reports. */
  readonly signal: AbortSignal;
  /** The exit code a report made after a signal ends with (128+N); undefined when none came. */
  signalExit(): number | undefined;
  /** The run gave its report: what happens next is the ordinary path's. */
  settle(): void;
  dispose(): void;
}

export interface EndingContext {
  /** The report with nothing judged, made when the run cannot give its own. */
  readonly emptyReport: (reason: string) => VerifyReport;
  /** Writes the report to stdout and the report files, synchronously (the process exits right after). */
  readonly writeSync: (report: VerifyReport) => void;
  /** How long a halted run has to give its own report before the empty one is written. */
  readonly graceMs: number;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function guardEnding(context: EndingContext): Ending {
  const controller = new AbortController();
  let settled = false;
  let signalled: number | undefined;
  const endWithout = (reason: string, code: number): never => {
    settled = true;
    try {
      context.writeSync(context.emptyReport(reason));
    } catch (error) {
      writeSync(2, `plantstore verify: cannot write a report: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(code);
  };
  const onSignal = (name: (typeof SIGNALS)[number]): void => {
    const code = 128 + constants.signals[name];
    if (signalled !== undefined) endWithout(`interrupted by ${name} again, before the run could report`, code);
    signalled = code;
    controller.abort(new Error(`interrupted by ${name}`));
    // The halted run drops what is in flight and reports at once; should it not, the empty report is written.
    setTimeout(() => {
      if (!settled) endWithout(`interrupted by ${name}; the run did not report within ${context.graceMs} ms`, code);
    }, context.graceMs).unref();
  };
  const handlers = new Map(SIGNALS.map((name) => [name, () => onSignal(name)]));
  const onCrash = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (process.env.PLANTSTORE_DEBUG && error instanceof Error) writeSync(2, `${error.stack}\n`);
    endWithout(`no verdict: verify failed inside (${message})`, EXIT_CODES.incomplete);
  };
  const onBeforeExit = (): void => {
    if (!settled) endWithout('no verdict: the run stopped before it finished (an answer was never settled)', EXIT_CODES.incomplete);
  };
  for (const [name, handler] of handlers) process.on(name, handler);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('beforeExit', onBeforeExit);
  return {
    signal: controller.signal,
    signalExit: () => signalled,
    settle: () => {
      settled = true;
    },
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
      process.off('beforeExit', onBeforeExit);
    },
  };
}

/** Writes `text` to a file or stdout at once: the process may exit on the next line. */
export function writeNow(path: string | 1, text: string): void {
  if (path === 1) writeSync(1, text);
  else writeFileSync(path, text);
}
