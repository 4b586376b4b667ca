/**
 * `plantstore serve`, run as a user runs it: the built CLI (dist/src/cli/main.js) in a child process.
 * dist is rebuilt first when it is missing or older than src (Node 20 cannot run the .ts directly).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postPlant, plantText, send } from '../support/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
/** Guards every wait on the child, so a CLI that never prints or never exits fails instead of hanging. */
const WAIT_MS = 15_000;

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtMtime(): number {
  return statSync(MAIN, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/** Builds dist when it is missing or stale. Type errors in others' unfinished work still emit, so tsc's exit code is not the test. */
async function ensureBuilt(): Promise<void> {
  if (builtMtime() >= newestSourceMtime(join(ROOT, 'src'))) return;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT }).catch(() => undefined);
  if (builtMtime() < newestSourceMtime(join(ROOT, 'src'))) throw new Error(`could not build ${MAIN} (run npx tsc -p tsconfig.build.json)`);
}

interface Cli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects if the CLI exits first or WAIT_MS pass. */
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, PLANTSTORE_TOKENS: '', ...env } });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const guard = setTimeout(() => child.kill('SIGKILL'), 4 * WAIT_MS);
  void exited.then(() => clearTimeout(guard));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (!match) return false;
          cleanup();
          resolve(match);
          return true;
        };
        const onExit = () => {
          if (!check()) reject(new Error(`the CLI exited before printing ${pattern}; stdout: ${out}; stderr: ${err}`));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} within ${WAIT_MS} ms; stdout: ${out}; stderr: ${err}`));
        }, WAIT_MS);
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('exit', onExit);
        };
        if (check()) return;
        child.stdout.on('data', check);
        child.on('exit', onExit);
      }),
  };
}

/** Runs a CLI that should end by itself; returns its exit code and output. */
async function runToExit(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args);
  // A CLI that hangs (or starts serving) is killed within the test's time, so no process outlives it.
  const deadline = setTimeout(() => cli.child.kill('SIGKILL'), WAIT_MS);
  const { code } = await cli.exited;
  clearTimeout(deadline);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

beforeAll(ensureBuilt, 120_000);

describe('plantstore serve', () => {
  it('prints the URL, the operation and the token policy, serves, and exits 0 on SIGTERM', async () => {
    const cli = runCli(['serve', '--port', '0']);
    try {
      const [, url = ''] = await cli.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      await cli.waitForOutput(/cors: /);
      const banner = cli.stdout();
      expect(banner).toMatch(/POST\s+\/plants\s+createPlant\s+stateful \(plants: create\), in-memory store, bearer/);
      expect(banner).toContain('resources:\n  plants: /plants (inferred)\n    id: id, client-assigned, int64\n    operations: create createPlant\n');
      expect(banner).toMatch(/resource notes:\n  info \/plants: there is no item path/);
      expect(banner).toContain('ANY non-empty credential is accepted');
      expect(banner).toContain('  bearer: Authorization: Bearer <token>, any non-empty token; refusals carry WWW-Authenticate: Bearer');
      expect(banner).toContain('refused credentials: HTTP 400, in the error body the operation declares');
      expect(banner).toMatch(/control API: .*open: no --admin-token; Host localhost, \*\.localhost, IP addresses;/);
      expect(banner).not.toContain('warning:');

      const reply = await postPlant(url, plantText({ name: 'from the CLI', id: 1 }));
      expect(reply.status).toBe(200);
      expect(reply.text).toBe('{"name":"from the CLI"}');
      await cli.waitForOutput(/ POST \/plants 200 /);

      cli.child.kill('SIGTERM');
      expect(await cli.exited).toEqual({ code: 0, signal: null });
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it("with --allow-host '*': the banner warns that any web page can reach the open control API", async () => {
    const cli = runCli(['serve', '--port', '0', '--allow-host', '*']);
    try {
      const [, url = ''] = await cli.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      await cli.waitForOutput(/\nstored items of plants: /);
      expect(cli.stdout()).toMatch(/control API: .*open: no --admin-token; any Host;/);
      // Answered also serves to let the CLI install its signal handlers before the SIGTERM below.
      expect((await send(`${url}/__control/health`, { headers: { host: 'evil.example' } })).status).toBe(200);
      expect(cli.stdout()).toContain("warning: --allow-host '*': any web page the developer visits can reach the open control API through DNS rebinding");
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toEqual({ code: 0, signal: null });
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('with --token: says how many tokens, never prints them, enforces them, and exits 0 on SIGINT', async () => {
    const cli = runCli(['serve', '--port', '0', '--token', 's3cret-cli-1', '--token', 's3cret-cli-2']);
    try {
      const [, url = ''] = await cli.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      await cli.waitForOutput(/cors: /);
      expect(cli.stdout()).toContain('tokens: 2 configured; other credentials are refused');

      const accepted = await postPlant(url, plantText({ name: 'tokened', id: 2 }), {
        'content-type': 'application/json',
        authorization: 'Bearer s3cret-cli-2',
      });
      expect(accepted.status).toBe(200);
      const refused = await postPlant(url, plantText({ name: 'tokened', id: 3 }), {
        'content-type': 'application/json',
        authorization: 'Bearer not-one-of-them',
      });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ error: 401, message: expect.any(String) });
      await cli.waitForOutput(/ POST \/plants 400 /);

      cli.child.kill('SIGINT');
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.stdout() + cli.stderr()).not.toContain('s3cret-cli');
      expect(cli.stdout() + cli.stderr()).not.toContain('not-one-of-them');
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});

describe('plantstore serve: set-up errors exit 2 with a message naming the culprit', () => {
  it.concurrent.each([
    ['--port abc', ['serve', '--port', 'abc'], '--port'],
    ['--auth-status 402', ['serve', '--auth-status', '402'], '--auth-status'],
    ['an unknown flag', ['serve', '--frobnicate'], '--frobnicate'],
    ['--spec missing.yaml', ['serve', '--spec', 'missing.yaml', '--port', '0'], 'missing.yaml'],
  ])('%s', async (_label, args, culprit) => {
    const { code, stdout, stderr } = await runToExit(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^plantstore: /);
    expect(stderr).toContain(culprit);
    expect(stdout).not.toContain('listening on');
  });
});

describe('plantstore serve: input files that are not regular files, or too large', () => {
  let folder = '';
  let fifo = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'plantstore-inputs-'));
    fifo = join(folder, 'pipe.yaml');
    await promisify(execFile)('mkfifo', [fifo]);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  // A FIFO once hung start-up silently (open waits for a writer); /dev/zero was read for 600 MiB.
  it.each([
    ['--spec', 'FIFO'],
    ['--config', 'FIFO'],
    ['--seed-data', 'FIFO'],
    ['--spec', '/dev/zero'],
    ['--config', '/dev/zero'],
    ['--seed-data', '/dev/zero'],
  ])('%s %s: refused at once, exit 2, naming the flag, the path and what it is', async (flag, which) => {
    const path = which === 'FIFO' ? fifo : which;
    const { code, stdout, stderr } = await runToExit(['serve', '--port', '0', flag, path]);
    expect(code).toBe(2);
    expect(stderr).toContain(flag);
    expect(stderr).toContain(path);
    expect(stderr).toMatch(which === 'FIFO' ? /not a regular file but a FIFO/ : /not a regular file but a character device/);
    expect(stdout).not.toContain('listening on');
  });

  it('refuses a config file over 1 MiB without reading it all', async () => {
    const big = join(folder, 'big.yaml');
    await writeFile(big, `# ${'x'.repeat(2 * 1024 * 1024)}\nport: 0\n`);
    const { code, stderr } = await runToExit(['serve', '--port', '0', '--config', big]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${big}: cannot read the config file (--config): larger than 1 MiB`);
  });

  it('escapes control characters of paths and document text in the banner, logs and errors', async () => {
    const spec = join(folder, 'evil\u001b[2J\nfake: line.yaml');
    const plantStore = await readFile(join(ROOT, 'spec', 'plant-store.yaml'), 'utf8');
    await writeFile(spec, plantStore.replace(/^  title: .*$/m, '  title: "Plant\\e]0;pwned\\a Store"'));
    const dataDir = join(folder, 'data\r\u009b31m');
    const cli = runCli(['serve', '--port', '0', '--spec', spec, '--data-dir', dataDir]);
    try {
      await cli.waitForOutput(/stored items of plants: kept in .*\n/);
      const banner = cli.stdout();
      expect(banner).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(banner).toContain(`from ${folder}/evil\\x1b[2J\\nfake: line.yaml\n`);
      expect(banner).toContain('Plant\\x1b]0;pwned\\x07 Store');
      expect(banner).toContain(`kept in ${folder}/data\\r\\x9b31m`);
    } finally {
      cli.child.kill('SIGKILL');
    }
    // The log line a restart's recovery writes (a fresh data dir has nothing to recover) is escaped too.
    const restarted = runCli(['serve', '--port', '0', '--spec', spec, '--data-dir', dataDir]);
    try {
      await restarted.waitForOutput(/items recovered from .*\n/);
      expect(restarted.stdout()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(restarted.stdout()).toMatch(/data: 0 items recovered from .*data\\r\\x9b31m/);
    } finally {
      restarted.child.kill('SIGKILL');
    }
    const missing = join(folder, 'gone\u001b[31m.yaml');
    const { code, stderr } = await runToExit(['serve', '--port', '0', '--spec', missing]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${folder}/gone\\x1b[31m.yaml`);
    expect(stderr).not.toContain('\u001b');
  });
});

describe('plantstore serve --log-format json', () => {
  it('writes only JSON lines: the banner as one object, then one object per request', async () => {
    const cli = runCli(['serve', '--port', '0', '--log-format', 'json']);
    try {
      const [, url = ''] = await cli.waitForOutput(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      await postPlant(url, '{"name":7,"id":1}');
      await cli.waitForOutput(/"status":400/);
      const records = cli
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records[0]).toMatchObject({ level: 'info', message: 'listening', url, document: { title: 'Plant Store' } });
      expect(records.at(-1)).toMatchObject({ method: 'POST', path: '/plants', status: 400, error: { code: 'PST_ERR_SCHEMA_VIOLATION' } });
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});

describe('plantstore --version', () => {
  it.each([['--version'], ['version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await runToExit([flag]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: `${manifest.version}\n` });
  });
});

describe('plantstore serve banner', () => {
  it('with --watch names every file it watches: the document, the config and the seed file the config names', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plantstore-banner-'));
    const config = join(folder, 'config.yaml');
    await writeFile(config, 'seed: seed.json\n');
    await writeFile(join(folder, 'seed.json'), '[{"id": 1, "name": "Fern"}]');
    const cli = runCli(['serve', '--port', '0', '--config', config, '--watch']);
    try {
      await cli.waitForOutput(/watch: on.*\n/);
      expect(cli.stdout()).toMatch(
        new RegExp(
          `watch: on, reloading when one of these changes \\(stored items are kept\\): document .*plant-store\\.yaml, config ${config}, config's seed ${join(folder, 'seed.json')}\n`,
        ),
      );
    } finally {
      cli.child.kill('SIGKILL');
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('lists the seed plants and the faults in force', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plantstore-banner-'));
    const config = join(folder, 'config.yaml');
    await writeFile(
      config,
      'seed:\n  - {name: Fern, id: 1}\n  - {name: Aloe, id: 2}\nfaults:\n  - {kind: status, status: 503, operation: createPlant}\n  - {kind: latency, latencyMs: 5}\n',
    );
    const cli = runCli(['serve', '--port', '0', '--config', config]);
    try {
      await cli.waitForOutput(/faults: .*\n/);
      expect(cli.stdout()).toContain('seed: 2 items (plants 2)\n');
      expect(cli.stdout()).toContain('faults: 2 in force (status 503 on createPlant, latency); see /__control/faults\n');
      await cli.waitForOutput(/watch: .*\n/);
      expect(cli.stdout()).toContain('proxy: off (answers come from the stand-in)\nwatch: off (restart to take an edited document, config or seed file)\n');
    } finally {
      cli.child.kill('SIGKILL');
      await rm(folder, { recursive: true, force: true });
    }
  });
});
