/**
 * json-server 0.17.4 (typicode/json-server, MIT; a dev dependency), a real REST server nobody here
 * wrote, on a free loopback port over a db file of its own: for the tests that hold verify and
 * serve to what a real server does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { freePort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../node_modules/json-server/lib/cli/bin.js', import.meta.url));

export interface JsonServer {
  readonly url: string;
  /** Its db file, as json-server rewrites it. */
  readonly db: string;
  readonly process: ChildProcess;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** json-server over a db file holding `data` (e.g. `{ posts: [...] }`), answering once it lists `probe`. */
export async function startJsonServer(data: Readonly<Record<string, unknown>>, probe: string): Promise<JsonServer> {
  const directory = await mkdtemp(join(tmpdir(), 'plantstore-json-server-'));
  const db = join(directory, 'db.json');
  await writeFile(db, JSON.stringify(data, null, 2));
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, db, '--port', String(port), '--host', '127.0.0.1', '--quiet'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${url}${probe}`)).ok) return { url, db, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`json-server did not answer on ${url} within 15 s`);
}
