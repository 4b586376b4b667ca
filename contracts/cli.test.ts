/**
 * `plantstore verify` as a user runs it (the built CLI, in its own process): exit codes 0/1/2,
 * reasons on stderr, the report on stdout, and the --junit/--json/--emit-regressions files.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

function plantstore(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 110_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let server: Awaited<ReturnType<typeof startServer>>;
let secured: Awaited<ReturnType<typeof startServer>>;

const ERROR = { type: 'object', required: ['error', 'message'], properties: { error: { type: 'integer' }, message: { type: 'string' } } };
const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 } } };
const operation = (operationId: string, security: object[]) => ({
  post: {
    operationId,
    security,
    requestBody: { required: true, content: { 'application/json': { schema: thing } } },
    responses: {
      '202': { description: 'queued' },
      '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } },
      '401': { description: 'no credentials', content: { 'application/json': { schema: ERROR } } },
    },
  },
});
/** Every kind of credential at once: bearer and three API keys on one operation, basic (and a header key) on another. */
const SECURED = {
  openapi: '3.0.3',
  info: { title: 'Secured things', version: '1' },
  paths: {
    '/things': operation('addThing', [{ bearerAuth: [], headerKey: [], queryKey: [], cookieKey: [] }]),
    '/others': operation('addOther', [{ basicAuth: [], headerKey: [] }]),
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer' },
      basicAuth: { type: 'http', scheme: 'basic' },
      headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
    },
  },
};
let dir: string;
beforeAll(async () => {
  server = await startServer({ port: 0, tokens: ['cli-token'] });
  dir = await mkdtemp(join(tmpdir(), 'plantstore-verify-'));
  await writeFile(join(dir, 'a-file'), 'not a folder');
  await writeFile(join(dir, 'secured.json'), JSON.stringify(SECURED));
  secured = await startServer({ port: 0, tokens: ['cli-token'], spec: join(dir, 'secured.json'), logLevel: 'silent' });
});
afterAll(async () => {
  await server.close();
  await secured.close();
  await rm(dir, { recursive: true, force: true });
});

// Each test spawns the CLI (a second or more to start, a run of its own): generous on a busy runner.
describe('plantstore verify', { timeout: 120_000 }, () => {
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
      // Before the run, so a failing run's exit 1 is not turned into 2 by its report (a missing folder is made; a file in the way is not).
      [['verify', '--target', server.url, '--junit', join(dir, 'a-file', 'r.xml')], /cannot write a report to .*a-file/],
      [
        ['verify', '--target', server.url, '--checks', 'positive-acceptance,no-such-check'],
        /no check is called "no-such-check"; the checks are positive-acceptance, /,
      ],
      [['verify', '--target', server.url, '--auth', 'kerberos:x'], /--auth takes bearer:<token>, basic:<user>:<password> or apikey:<scheme>=<key>/],
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
    // The bundled document has a create only: the seven lifecycle checks have nothing to judge.
    expect(stdout).toMatch(/^CONFORMS: 21 checks, 10 passed, 0 failed, 0 warned, 11 skipped/m);
    const report = JSON.parse(await readFile(json, 'utf8')) as VerifyReport;
    expect(report.seed).toBe(5);
    expect(report.ok).toBe(true);
    expect(await readFile(junit, 'utf8')).toMatch(/<testsuites name="plantstore verify" tests="\d+" failures="0"/);
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

  it('never writes a secret of any auth form: console, JUnit, JSON and regression files carry variables', async () => {
    const reports = join(dir, 'every-form', 'reports');
    const regressions = join(dir, 'every-form', 'regressions');
    const secrets = {
      token: 'bearer-secret-1111',
      header: 'header-key-secret-2222',
      query: 'query-key-secret-3333',
      cookie: 'cookie-key-secret-4444',
      password: 'basic-password-5555',
      extra: 'tenant-secret-6666',
    };
    const { code, stdout, stderr } = await plantstore(
      [
        'verify',
        '--target',
        secured.url,
        '--spec',
        join(dir, 'secured.json'),
        '--runs',
        '8',
        '--seed',
        '3',
        '--auth',
        `apikey:headerKey=${secrets.header}`,
        '--auth',
        `apikey:api_key=${secrets.query}`,
        '--auth',
        `basic:ada:${secrets.password}`,
        '--header',
        `X-Tenant-Token: ${secrets.extra}`,
        // Into folders that do not exist yet, as the CI example (README, docs/verify.md) does.
        '--junit',
        join(reports, 'verify.xml'),
        '--json',
        join(reports, 'verify.json'),
        '--emit-regressions',
        regressions,
      ],
      // The bearer token (not one the server knows, so valid requests fail) and the cookie key from the environment.
      { CONTRACT_TOKEN: secrets.token, CONTRACT_API_KEY_COOKIEKEY: secrets.cookie },
    );
    expect(code, `${stdout}\n${stderr}`).toBe(1);
    expect(stdout).toMatch(/FAILURE positive-acceptance/);
    // The curl lines read every credential from the shell.
    expect(stdout).toContain(`-H 'authorization: Bearer '"$TOKEN"`);
    expect(stdout).toContain(`-H 'x-api-key: '"$API_KEY_HEADERKEY"`);
    expect(stdout).toContain(`api_key='"$API_KEY_QUERYKEY"`);
    expect(stdout).toContain(`session='"$API_KEY_COOKIEKEY"`);
    expect(stdout).toContain(`-H 'x-tenant-token: '"$HEADER_X_TENANT_TOKEN"`);
    const written = await Promise.all(
      [join(reports, 'verify.xml'), join(reports, 'verify.json'), ...(await readdir(regressions)).map((name) => join(regressions, name))].map((path) =>
        readFile(path, 'utf8'),
      ),
    );
    const basic = Buffer.from(`ada:${secrets.password}`).toString('base64');
    for (const text of [stdout, stderr, ...written]) {
      for (const secret of [...Object.values(secrets), basic]) expect(text).not.toContain(secret);
    }
  });

  it('--dry-run prints the plan, sends nothing and exits 0', async () => {
    const { code, stdout } = await plantstore(['verify', '--target', 'http://127.0.0.1:1', '--dry-run', '--exclude-checks', 'duplicate-ids']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/plan \(--dry-run: nothing was sent\)/);
    expect(stdout).toMatch(/sends \d+ cases: .*valid ×200/);
    expect(stdout).toMatch(/sends \d+ cases: invalid#0\.\.\d+ ×\d+ each/);
    expect(stdout).toMatch(/left out: duplicate-ids \(excluded by --exclude-checks\)/);
    expect(stdout).toMatch(/^DRY RUN: /m);
  });
});
