/**
 * Stoplight Prism's mock server (`prism mock`, @stoplight/prism-cli 5.16, Apache-2.0; a dev
 * dependency), a real server nobody here wrote, on a free loopback port: it answers every operation
 * with a value generated from, or an example of, the document's declared answer, and keeps nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

export interface PrismMock {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** `prism mock` of `document`, once it answers `probe` (any status: prism is up). */
export async function startPrismMock(document: string, probe: string): Promise<PrismMock> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'mock', document, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  };
  // Prism reads and dereferences the document first: seconds on a busy runner.
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      await fetch(`${url}${probe}`);
      return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`prism mock did not answer on ${url} within 30 s`);
}
