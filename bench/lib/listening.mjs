// @ts-check
// A server spawned for a timing, used as soon as it prints its "listening on http://host:port" line,
// then killed: what bench/startup.mjs and bench/first-prefer.mjs both time from.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Spawns `node args…` in the project's folder; once it prints its listening line, calls
 * `use(port, sinceSpawn, pid)` (sinceSpawn(): ms since the spawn) and resolves what that resolves, then
 * kills the process. Rejects when it exits first, or after `limitMs`.
 * @template T
 * @param {string[]} args
 * @param {(port: number, sinceSpawn: () => number, pid: number) => Promise<T>} use
 * @param {{ env?: Record<string, string>, limitMs?: number }} [options]
 * @returns {Promise<T>}
 */
export function whenListening(args, use, { env = {}, limitMs = 20_000 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    let done = false;
    const finish = (/** @type {() => void} */ settle) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no answer within ${limitMs} ms: ${err.slice(-300)}`))), limitMs);
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => finish(() => reject(new Error(`${args[0]} exited (${code}) before answering: ${err.slice(-300)}`))));
    child.stdout.on('data', (chunk) => {
      if (out.includes('listening on')) return;
      out += chunk;
      const port = /listening on http:\/\/[^\s:]+:(\d+)/.exec(out)?.[1];
      if (port === undefined) return;
      use(Number(port), () => performance.now() - t0, child.pid ?? 0).then(
        (value) => finish(() => resolve(value)),
        (error) => finish(() => reject(error)),
      );
    });
  });
}
