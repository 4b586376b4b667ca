/**
 * A signal is heard while verify reads its document (src/core/openapi/load-document.ts): DigitalOcean's
 * public document, 2,907 files of $refs, takes seconds to read and build, and a SIGTERM sent then was
 * acted on only once all of it was read (or not at all: the 5 s grace ended the run without its
 * report). The built CLI, its own process, on a generated document of 800 operations whose last
 * schema is a $ref to a named pipe: the signal is sent while verify waits on that pipe, which then
 * gives a schema with a $ref of its own. The run must end within seconds with the ending of a
 * signal during planning: INCOMPLETE, no verdict, exit 143.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, readBody, respond } from './faulty-servers/http-double.js';
import { heavyDocument, heavyItemSchema } from '../support/heavy-schema.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const OPERATIONS = 800;

// The last operation's answer is read from the pipe: the $ref parser finds it at the end of its
// walk of the document, one synchronous call of the library's that a signal must wait for.
const document = (): object =>
  heavyDocument(OPERATIONS, 'Many large schemas, one read from a pipe', (i) => (i === OPERATIONS - 1 ? { $ref: './piped.json' } : heavyItemSchema(i)));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plantstore-signal-loading-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('verify hears a signal while it reads its document', () => {
  it.skipIf(process.platform === 'win32')(
    'SIGTERM while a $ref is read: the run ends within seconds, incomplete, exit 143',
    async () => {
      const spec = join(dir, 'many-schemas.json');
      await writeFile(spec, JSON.stringify(document()));
      await writeFile(join(dir, 'leaf.json'), JSON.stringify({ type: 'string' }));
      const pipe = join(dir, 'piped.json');
      execFileSync('mkfifo', [pipe]);
      const target = await listenLocally((req, res) => readBody(req, res, 1 << 20, () => respond(res, () => ({ status: 400, body: { error: 'refused' } }))));
      try {
        const child = spawn(process.execPath, [CLI, 'verify', '--spec', spec, '--target', target.url, '--runs', '5', '--seed', '1'], {
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 150_000,
          // No cache of an earlier run's reading: a document with external $refs is never cached, but say so.
          env: { ...process.env, PLANTSTORE_CACHE_DIR: join(dir, 'cache') },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const closed = new Promise<{ code: number | null; endedAt: number }>((resolve) =>
          child.on('close', (code) => resolve({ code, endedAt: performance.now() })),
        );
        // Opening the pipe to write waits for verify to open it to read: it is then reading its document's $refs.
        const writer = await open(pipe, 'w');
        const signalledAt = performance.now();
        child.kill('SIGTERM');
        await new Promise((resolve) => setTimeout(resolve, 200));
        await writer.writeFile(JSON.stringify({ type: 'object', properties: { name: { $ref: './leaf.json' } } }));
        await writer.close();
        const outcome = await closed;
        const afterSignalMs = outcome.endedAt - signalledAt;
        expect(outcome.code, stderr).toBe(143);
        expect(stdout).toMatch(/^INCOMPLETE: interrupted by SIGTERM while the document was being read: no request was sent/m);
        expect(stdout).toMatch(/NO VERDICT/);
        // 0.25–0.3 s here (0.2 s of it the test's own wait); before, the rest of the document was read and built first: 4.3–6.9 s.
        expect(afterSignalMs, `ended ${Math.round(afterSignalMs)} ms after the signal`).toBeLessThan(2_000);
      } finally {
        await target.close();
      }
    },
    180_000,
  );
});
