import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

/** Runs `plantstore serve` (the built CLI) on a free port and resolves once it prints its URL. */
export function spawnServe(args: readonly string[], timeoutMs = 10_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`plantstore serve did not start within ${timeoutMs} ms; it printed:\n${printed}`));
    }, timeoutMs);
    const onOutput = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(printed);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, output: () => printed });
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`plantstore serve exited (${code}) before listening; it printed:\n${printed}`));
    });
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
