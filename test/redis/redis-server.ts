/**
 * A redis-server of the test's own (Debian's package; .ci/run installs it): on a free loopback
 * port, in a temp dir, append-only with `appendfsync always` so a change acknowledged before a
 * SIGKILL of Redis is in its file. Stopped (and its dir removed) by the test that started it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** SIGKILL: no clean shutdown, so what survives is what the append-only file holds. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that hangs (connections open, no answer) and comes back. */
  pause(): void;
  resume(): void;
  /** Starts it again on the same port and dir (reading its append-only file). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export { freePort };

/** `password`: Redis asks for it (requirepass), as a production one would; `settings`: more redis-server flags. */
export async function startRedis(password?: string, settings: readonly string[] = []): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'];
    if (password !== undefined) args.push('--requirepass', password);
    args.push(...settings);
    child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitForPort(port, 10_000);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    kill,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    restart: launch,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.write('PING\r\n');
      });
      socket.once('data', (data) => {
        socket.destroy();
        // Without the password Redis still answers (NOAUTH): it is up, and not loading its file any more.
        resolve(data.toString().startsWith('+PONG') || data.toString().startsWith('-NOAUTH'));
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`redis-server did not answer on port ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
