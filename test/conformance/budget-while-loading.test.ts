/**
 * verify's --time-budget-ms bounds the whole run, the reading of its document included: a document of
 * 800 large schemas takes seconds to read and build (Box's public one, 1.7 MB, 1.2 s here), and the
 * budget began to count only once it was read (and was heard only at the first breath after the
 * parse), so a run given 0.1 s took all of that and then said "0 of about 882 requests sent". The built CLI, its own process, no cache of an earlier reading: the
 * run must end soon after its budget with the ending of a run halted while the document was being
 * read (INCOMPLETE, no verdict, exit 3 as docs/verify.md says), and send nothing.
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
const OPERATIONS = 800;
const BUDGET_MS = 100;

const document = (): object => heavyDocument(OPERATIONS, 'Many large schemas');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plantstore-budget-loading-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the time budget counts from the start of the run', () => {
  it('a document that takes longer to read than the budget ends the run at the budget: incomplete, nothing sent, exit 3', async () => {
    const spec = join(dir, 'many-schemas.json');
    await writeFile(spec, JSON.stringify(document()));
    let requests = 0;
    const target = await listenLocally((req, res) =>
      readBody(req, res, 1 << 20, () => {
        requests += 1;
        respond(res, () => ({ status: 400, body: { error: 'refused' } }));
      }),
    );
    try {
      const args = [CLI, 'verify', '--spec', spec, '--target', target.url, '--runs', '5', '--seed', '1', '--time-budget-ms', String(BUDGET_MS)];
      const child = spawn(process.execPath, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 150_000,
        env: { ...process.env, PLANTSTORE_CACHE_DIR: 'off' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(3);
      expect(stdout).toMatch(/^INCOMPLETE: the time budget of 0\.1 s was spent \(--time-budget-ms\) while the document was being read: no request was sent/m);
      expect(stdout).toMatch(/NO VERDICT/);
      // The report's own figure: the run's time, from its start to its report.
      const took = /0 requests in (\d+(?:\.\d+)?) s/.exec(stdout)?.[1];
      expect(Number(took), stdout).toBeLessThan(1);
      expect(requests).toBe(0);
    } finally {
      await target.close();
    }
  }, 180_000);
});
