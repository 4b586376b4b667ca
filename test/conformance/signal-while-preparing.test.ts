/**
 * A signal is heard while verify does long synchronous work (contracts/runner/breathe.ts): planning a
 * large document's operations and compiling their schemas held the event loop for seconds (DigitalOcean's
 * 545 operations: 7 s and 21 s), and a SIGTERM sent then ended the run 72 s later. The built CLI, its own
 * process, on a generated document of many large schemas: SIGTERM as the target sees the reachability
 * probe (planning done, the schemas' compiling about to start); the run must end within a few seconds
 * with its partial report and exit 143 (docs/verify.md's exit codes).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, readBody, respond } from './faulty-servers/http-double.js';
import { heavyDocument } from '../support/heavy-schema.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const OPERATIONS = 100;

const document = (): object => heavyDocument(OPERATIONS, 'Many large schemas');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plantstore-signal-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('verify hears a signal during long synchronous work', () => {
  it('SIGTERM while the schemas compile: the run ends within seconds, reports what it judged, exits 143', async () => {
    const spec = join(dir, 'many-schemas.json');
    await writeFile(spec, JSON.stringify(document()));
    let signalledAt: number | undefined;
    let kill: (() => void) | undefined;
    const target = await listenLocally((req, res) =>
      readBody(req, res, 1 << 20, () => {
        // The first request is the reachability probe: planning is done, compiling starts.
        if (signalledAt === undefined && kill !== undefined) {
          signalledAt = performance.now();
          kill();
        }
        respond(res, () => ({ status: 400, body: { error: 'refused' } }));
      }),
    );
    try {
      const outcome = await new Promise<{ code: number | null; stdout: string; stderr: string; endedAt: number }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'verify', '--spec', spec, '--target', target.url, '--runs', '5', '--seed', '1'], {
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 150_000,
        });
        kill = () => child.kill('SIGTERM');
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr, endedAt: performance.now() }));
      });
      expect(signalledAt, outcome.stderr).toBeDefined();
      const afterSignalMs = outcome.endedAt - (signalledAt as number);
      expect(outcome.code, outcome.stderr).toBe(143);
      expect(outcome.stdout).toMatch(/^INCOMPLETE: interrupted by SIGTERM/m);
      // Breaths every 20 ms: about 0.1 s here; the schemas compiled in one go took 5.8 s after the signal.
      expect(afterSignalMs, `ended ${Math.round(afterSignalMs)} ms after the signal`).toBeLessThan(2_000);
    } finally {
      await target.close();
    }
  }, 180_000);
});
