/**
 * `plantstore verify` (the built CLI, its own process) against targets that answer badly on purpose
 * (issue 17, item 6): a run always ends in a verdict, its reports and a non-zero exit, with memory
 * bounded (VmHWM of the verify process, read from /proc at its exit) and its time budget stated.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PEAK = fileURLToPath(new URL('../support/peak-memory.mjs', import.meta.url));
const MiB = 1024 * 1024;

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak RSS of the verify process, in MiB. */
  readonly peakMiB: number;
  readonly ms: number;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plantstore-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI under the peak-memory hook; `during` may signal it (it is given the child's pid). */
function verifyProcess(args: readonly string[], during?: (pid: number) => void): Promise<Outcome> {
  const peakFile = join(dir, `peak-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', PEAK, CLI, 'verify', ...args], {
      env: { ...process.env, PEAK_MEMORY_FILE: peakFile },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 90_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (during !== undefined && child.pid !== undefined) during(child.pid);
    child.on('close', async (code, signal) => {
      const peak = existsSync(peakFile) ? Number(await readFile(peakFile, 'utf8')) / 1024 : Number.NaN;
      resolve({ code, signal, stdout, stderr, peakMiB: Math.round(peak), ms: performance.now() - started });
    });
  });
}

/** A target answering every request with `answer`, on 127.0.0.1. */
async function target(answer: Parameters<typeof createServer>[1]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** 200 with a JSON content type and `bytes` of spaces, chunked (no length said up front), written as fast as the reader takes them. */
function hugeBody(bytes: number): Parameters<typeof createServer>[1] {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return (req, res) => {
    req.resume();
    res.on('error', () => undefined);
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };
}

const reportOf = async (
  path: string,
): Promise<{ ok: boolean; incomplete?: string; timeBudget?: object; checks: Array<{ findings: Array<{ message: string }> }> }> =>
  JSON.parse(await readFile(path, 'utf8')) as never;

describe('verify against hostile targets', { timeout: 120_000 }, () => {
  it('reads an answer of 512 MiB only up to the cap: a finding, exit 1, the reports, and peak RSS under 400 MiB', async () => {
    const huge = await target(hugeBody(512 * MiB));
    try {
      const json = join(dir, 'huge.json');
      const outcome = await verifyProcess(['--target', huge.url, '--runs', '1', '--seed', '3', '--checks', 'no-server-errors', '--json', json]);
      expect(outcome.code, outcome.stderr).toBe(1);
      expect(outcome.stdout).toMatch(/answer larger than 8388608 bytes \(--max-answer-bytes/);
      const report = await reportOf(json);
      expect(report.ok).toBe(false);
      expect(report.checks.flatMap((check) => check.findings).some((finding) => /answer larger than 8388608 bytes/.test(finding.message))).toBe(true);
      expect(outcome.peakMiB).toBeGreaterThan(0);
      expect(outcome.peakMiB).toBeLessThan(400);
    } finally {
      await huge.close();
    }
  });

  it('reports 210 KB of answer headers as a finding about the answer, not an unreachable target', async () => {
    const headers = Object.fromEntries(Array.from({ length: 210 }, (_, i) => [`x-filler-${i}`, 'a'.repeat(1000)]));
    const bloated = await target((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end('{}');
    });
    try {
      const outcome = await verifyProcess(['--target', bloated.url, '--runs', '1', '--seed', '3', '--checks', 'no-server-errors']);
      expect(outcome.stderr).not.toMatch(/cannot be reached/);
      expect(outcome.code, outcome.stderr).toBe(1);
      expect(outcome.stdout).toMatch(/answer headers larger than 16384 bytes/);
    } finally {
      await bloated.close();
    }
  });

  it('states the time budget, and ends a run against a silent target at --time-budget-ms with "incomplete" and exit 3', async () => {
    const silent = await target((req) => req.resume());
    try {
      const json = join(dir, 'silent.json');
      const junit = join(dir, 'silent.xml');
      const outcome = await verifyProcess(['--target', silent.url, '--runs', '20', '--time-budget-ms', '3000', '--json', json, '--junit', junit]);
      expect(outcome.code, outcome.stderr).toBe(3);
      expect(outcome.stdout).toMatch(/^time budget: 5 s per request \(--timeout-ms\), the run 3 s \(--time-budget-ms\), shrinking 60 s$/m);
      expect(outcome.stdout).toMatch(/^NO VERDICT \(incomplete run\)/m);
      // Loading, the halt and the report: well within the budget plus a few seconds (it took 105 s for 20 runs).
      expect(outcome.ms).toBeLessThan(20_000);
      const report = await reportOf(json);
      expect(report.ok).toBe(false);
      expect(report.incomplete).toMatch(/^the time budget of 3 s was spent/);
      expect(report.timeBudget).toEqual({ requestTimeoutMs: 5000, runMs: 3000, shrinkMs: 60000 });
      expect(await readFile(junit, 'utf8')).toMatch(/<testcase [^>]*name="the run completes"[^>]*><failure message="the time budget of 3 s was spent/);
    } finally {
      await silent.close();
    }
  });

  it('SIGTERM mid-run: the run halts, prints its verdict, writes its reports and exits 143', async () => {
    const silent = await target((req) => req.resume());
    try {
      const json = join(dir, 'term.json');
      const outcome = await verifyProcess(['--target', silent.url, '--runs', '20', '--json', json], (pid) => {
        setTimeout(() => process.kill(pid, 'SIGTERM'), 4_000);
      });
      expect(outcome.signal).toBeNull();
      expect(outcome.code, outcome.stderr).toBe(143);
      expect(outcome.stdout).toMatch(/^INCOMPLETE: interrupted by SIGTERM/m);
      const report = await reportOf(json);
      expect(report.ok).toBe(false);
      expect(report.incomplete).toMatch(/^interrupted by SIGTERM/);
    } finally {
      await silent.close();
    }
  });
});

describe('a run that cannot give its own report', () => {
  /** A node process with the CLI's ending guard installed, then `body` (a crash, or work that drains without settling). */
  function guarded(body: string): Promise<{ code: number; stdout: string; report: string }> {
    const json = join(dir, `guard-${Math.random().toString(36).slice(2)}.json`);
    const ending = new URL('../../dist/src/cli/verify-ending.js', import.meta.url).href;
    const script = `
      import { writeFileSync } from 'node:fs';
      const { guardEnding, writeNow } = await import(${JSON.stringify(ending)});
      guardEnding({
        graceMs: 1000,
        emptyReport: (reason) => ({ ok: false, incomplete: reason }),
        writeSync: (report) => { writeNow(1, 'NO VERDICT: ' + report.incomplete + '\\n'); writeFileSync(${JSON.stringify(json)}, JSON.stringify(report)); },
      });
      ${body}`;
    return new Promise((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }, async (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, report: existsSync(json) ? await readFile(json, 'utf8') : '' });
      });
    });
  }

  it('a promise never settled (the 1 GiB answer ended so, exit 0 and silent): no verdict, exit 3, the report written', async () => {
    const outcome = await guarded(`void new Promise(() => undefined).then(() => process.exit(0));`);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toMatch(/NO VERDICT: no verdict: the run stopped before it finished/);
    expect(outcome.report).toMatch(/"ok":false/);
  });

  it('an uncaught exception: no verdict, exit 3, the report written', async () => {
    const outcome = await guarded(`setTimeout(() => { throw new RangeError('Invalid string length'); }, 10);`);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toMatch(/NO VERDICT: no verdict: verify failed inside \(Invalid string length\)/);
    expect(outcome.report).toMatch(/"ok":false/);
  });
});
