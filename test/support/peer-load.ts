/**
 * What the hostile-peer tests measure on a real `plantstore serve` process: its peak resident
 * memory (VmHWM, from /proc) and how long the API keeps a client waiting while a peer sends or
 * answers hundreds of MiB.
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { exited } from '../persistence/cli-server.js';

/** Time allowed for `plantstore serve` to start: generous, as the 2-core machine may be busy. */
export const STARTUP_MS = 30_000;

/** The process's peak resident set so far, in MiB (Linux: VmHWM of /proc/<pid>/status). */
export function peakRssMiB(pid: number | undefined): number {
  if (pid === undefined) throw new Error('the process has no pid (it did not start)');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Math.round(Number(kib) / 1024);
}

export interface LatencyProbe {
  /** Stops probing; the longest wait seen (a request still unanswered counts its wait so far), in ms. */
  stop(): Promise<number>;
}

/** GETs `url` one request after another, `gapMs` apart, timing each answer. */
export function probeLatency(url: string, gapMs = 100): LatencyProbe {
  let longest = 0;
  let running = true;
  let inFlightSince: number | undefined;
  const loop = (async () => {
    while (running) {
      inFlightSince = performance.now();
      try {
        const answer = await request(url, { headersTimeout: 30_000, bodyTimeout: 30_000 });
        await answer.body.dump();
      } catch {
        // A refused probe still measured its wait; the test's own assertions say what went wrong.
      }
      longest = Math.max(longest, performance.now() - inFlightSince);
      inFlightSince = undefined;
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  })();
  return {
    async stop() {
      running = false;
      const pending = inFlightSince === undefined ? 0 : performance.now() - inFlightSince;
      // A probe stuck behind a stalled server must not hold the test up: wait at most a second.
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 1000))]);
      return Math.round(Math.max(longest, pending));
    },
  };
}

/** Ends a spawned server (SIGTERM, then SIGKILL after 3 s) and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited(child);
  clearTimeout(killer);
}

/** Polls `read` every 50 ms until `done` holds of its value or `timeoutMs` passes; returns the last value. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let value = await read();
  while (!done(value) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
