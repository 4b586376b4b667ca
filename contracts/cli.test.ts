/**
 * `plantstore verify` as a user runs it (the built CLI, in its own process): exit codes 0/1/2,
 * reasons on stderr, the report on stdout, and the --junit/--json/--emit-regressions files.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import type { VerifyReport } from './report.js';

const CLI = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function plantstore(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let server: Awaited<ReturnType<typeof startServer>>;
let dir: string;
beforeAll(async () => {
  server = await startServer({ port: 0, tokens: ['cli-token'] });
  dir = await mkdtemp(join(tmpdir(), 'plantstore-verify-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('plantstore verify', () => {
  it('prints its help and exits 0', async () => {
    const { code, stdout } = await plantstore(['verify', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--expect-unique-ids/);
  });

  it('exits 2 with a reason for usage and set-up errors', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['verify'], /--target URL is required/],
      [['verify', '--target', server.url, '--runs', 'many'], /--runs takes a whole number/],
      [['verify', '--target', server.url, '--frobnicate'], /Unknown option '--frobnicate'/],
      [['verify', '--target', server.url, '--replay', 'valid:1'], /--replay needs the --seed/],
      [['verify', '--target', 'http://127.0.0.1:1'], /cannot be reached/],
      [['verify', '--target', server.url, '--spec', join(dir, 'missing.yaml')], /cannot read the document/],
      // Before the run, so a failing run's exit 1 is not turned into 2 by its report.
      [['verify', '--target', server.url, '--junit', join(dir, 'no-such-folder', 'r.xml')], /cannot write a report to .*no-such-folder/],
    ];
    for (const [args, reason] of cases) {
      const { code, stderr } = await plantstore(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(reason);
    }
  });

  it('exits 0 for a conforming target and writes the JUnit and JSON reports', async () => {
    const junit = join(dir, 'report.xml');
    const json = join(dir, 'report.json');
    const args = ['verify', '--target', server.url, '--token', 'cli-token', '--runs', '30', '--seed', '5', '--expect-unique-ids', '--tokens-validated'];
    const { code, stdout, stderr } = await plantstore([...args, '--junit', junit, '--json', json]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    // The bundled document has a create only: the six lifecycle checks have nothing to judge.
    expect(stdout).toMatch(/^CONFORMS: 16 checks, 10 passed, 0 failed, 0 warned, 6 skipped/m);
    const report = JSON.parse(await readFile(json, 'utf8')) as VerifyReport;
    expect(report.seed).toBe(5);
    expect(report.ok).toBe(true);
    expect(await readFile(junit, 'utf8')).toMatch(/<testsuites name="plantstore verify" tests="16" failures="0"/);
  });

  it('exits 1 when a check fails, with the finding, its replay and curl, and regression files', async () => {
    const regressions = join(dir, 'regressions');
    const [junit, json] = [join(dir, 'failing.xml'), join(dir, 'failing.json')];
    const { code, stdout, stderr } = await plantstore([
      'verify',
      '--target',
      server.url,
      '--token',
      'not-the-token',
      '--runs',
      '10',
      '--seed',
      '5',
      '--emit-regressions',
      regressions,
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAILURE positive-acceptance: a valid request was refused/);
    expect(stdout).toMatch(/--seed 5 --replay valid:\d/);
    expect(stdout).toMatch(/curl -sS -i -X 'POST'/);
    expect(await readdir(regressions)).toContain('positive-acceptance-1.test.ts');
    // The token is a secret: every curl reads it from $TOKEN, as the replay command does, and no report or file holds it.
    expect(stdout).toContain(`-H 'authorization: Bearer '"$TOKEN"`);
    const written = await Promise.all(
      [junit, json, ...(await readdir(regressions)).map((name) => join(regressions, name))].map((path) => readFile(path, 'utf8')),
    );
    for (const text of [stdout, stderr, ...written]) expect(text).not.toContain('not-the-token');
  });
});
