/**
 * verify sends the credentials of every scheme a document declares (--auth), checks on every
 * secured operation that wrong or missing ones are refused, and never writes a secret down. Proved
 * against servers that check credentials, and faulty ones that ignore a wrong API key in the query
 * or Basic credentials altogether (test/conformance/faulty-servers/auth-gate.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { renderConsoleReport } from '../../contracts/reporters/console.js';
import { renderJson } from '../../contracts/reporters/json.js';
import { renderJUnit } from '../../contracts/reporters/junit.js';
import { regressionSource } from '../../contracts/reporters/regressions.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startAuthGate, type Expected, type Gate, type GateMode } from './faulty-servers/auth-gate.js';

const ERROR = { type: 'object', required: ['error', 'message'], properties: { error: { type: 'integer' }, message: { type: 'string' } } };

function documentFor(scheme: object): object {
  const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Things', version: '1' },
    security: [{ guard: [] }],
    paths: {
      '/things': {
        post: {
          operationId: 'addThing',
          requestBody: { required: true, content: { 'application/json': { schema: thing } } },
          responses: {
            '202': { description: 'queued' },
            '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } },
            '401': { description: 'no credentials', content: { 'application/json': { schema: ERROR } } },
          },
        },
      },
    },
    components: { securitySchemes: { guard: scheme } },
  };
}

const API_KEY_QUERY = documentFor({ type: 'apiKey', in: 'query', name: 'api_key' });
const BASIC = documentFor({ type: 'http', scheme: 'basic' });
const KEY = 'sekrit-query-key-41';
const PASSWORD = 'pa55-w0rd-basic-77';

let gate: Gate | undefined;
afterEach(async () => {
  await gate?.close();
  gate = undefined;
});

async function run(spec: object, expected: Expected, mode: GateMode, auth: readonly string[], tokensValidated = true): Promise<VerifyReport> {
  gate = await startAuthGate(spec, expected, mode);
  return verify({ target: gate.url, spec, runs: 12, seed: 7, concurrency: 2, auth, tokensValidated });
}

function failures(report: VerifyReport): string[] {
  return report.checks.flatMap((check) => check.findings.filter((f) => f.severity === 'failure').map((f) => `${check.id}: ${f.message}`));
}

/** Every text the run writes: console, JSON, JUnit and its regression files. */
function everythingWritten(report: VerifyReport): string {
  const findings = report.checks.flatMap((check) => check.findings);
  return [renderConsoleReport(report), renderJson(report), renderJUnit(report), ...findings.map((f) => regressionSource(report, f))].join('\n');
}

describe('API key in the query', () => {
  const expected: Expected = { kind: 'apiKey', in: 'query', name: 'api_key', value: KEY };

  it('passes a server that checks the key, sending it as given', async () => {
    const report = await run(API_KEY_QUERY, expected, 'checks', [`apikey:guard=${KEY}`]);
    expect(failures(report)).toEqual([]);
    expect(report.checks.find((c) => c.id === 'positive-acceptance')?.cases).toBeGreaterThan(0);
    expect(everythingWritten(report)).not.toContain(KEY);
  });

  it('catches a server that ignores a wrong key', async () => {
    const report = await run(API_KEY_QUERY, expected, 'ignores-wrong-key', [`apikey:api_key=${KEY}`]);
    const auth = report.checks.find((c) => c.id === 'auth-enforced');
    expect(auth?.status).toBe('failed');
    expect(auth?.findings.map((f) => f.message).join('\n')).toMatch(/wrong API key/);
  });

  it('never writes the key: findings carry $API_KEY, which curl and the regression files read from the shell', async () => {
    // The server wants another key: every valid request is refused, so findings hold requests that carry ours.
    const report = await run(API_KEY_QUERY, { ...expected, value: 'another-key' }, 'checks', [`apikey:guard=${KEY}`]);
    const refused = report.checks.find((c) => c.id === 'positive-acceptance');
    expect(refused?.status).toBe('failed');
    const written = everythingWritten(report);
    expect(written).not.toContain(KEY);
    expect(written).toContain(`api_key='"$API_KEY"`);
    expect(written).toContain(`--auth "apikey:guard=$API_KEY"`);
    // The hint names the flag for this scheme, never --token.
    expect(refused?.findings[0]?.message).toMatch(/--auth apikey:guard=<key>/);
    expect(refused?.findings[0]?.message).not.toMatch(/--token/);
  });

  it('without a key: only the refusals are sent, and the coverage report says which flag to pass', async () => {
    const report = await run(API_KEY_QUERY, expected, 'checks', [], false);
    expect(failures(report)).toEqual([]);
    expect(report.checks.find((c) => c.id === 'positive-acceptance')?.cases).toBe(0);
    expect(report.checks.find((c) => c.id === 'auth-enforced')?.cases).toBeGreaterThan(0);
    const skipped = report.coverage.find((cell) => cell.check === 'positive-acceptance');
    expect(skipped?.skipped).toMatch(/no credentials for apiKey api_key \(query\): pass --auth apikey:guard=<key>/);
    expect(renderConsoleReport(report)).not.toMatch(/--token/);
  });
});

describe('HTTP basic', () => {
  const expected: Expected = { kind: 'basic', user: 'ada', password: PASSWORD };

  it('passes a server that checks the password, and never writes it', async () => {
    const report = await run(BASIC, expected, 'checks', [`basic:ada:${PASSWORD}`]);
    expect(failures(report)).toEqual([]);
    expect(everythingWritten(report)).not.toContain(PASSWORD);
    expect(everythingWritten(report)).not.toContain(Buffer.from(`ada:${PASSWORD}`).toString('base64'));
  });

  it('catches a server that ignores basic auth', async () => {
    const report = await run(BASIC, expected, 'ignores-basic', [`basic:ada:${PASSWORD}`]);
    const auth = report.checks.find((c) => c.id === 'auth-enforced');
    expect(auth?.status).toBe('failed');
    expect(auth?.findings.map((f) => f.message).join('\n')).toMatch(/no Authorization header|wrong basic password/);
  });
});
