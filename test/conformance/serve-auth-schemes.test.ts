/**
 * verify with --token against `serve --token` on a document of every scheme
 * (test/fixtures/auth-schemes.yaml): the token is sent the way each scheme carries it (an API key
 * behind its "Token " prefix, in the query, in a cookie; bearer), so valid requests are accepted,
 * wrong credentials refused, and nothing is a failure.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { renderJson } from '../../contracts/reporters/json.js';
import { startServer, type RunningServer } from '../../src/index.js';

const SCHEMES = fileURLToPath(new URL('../fixtures/auth-schemes.yaml', import.meta.url));
const TOKEN = 'c0ntract-t0ken-5d';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ spec: SCHEMES, port: 0, tokens: [TOKEN] });
});
afterAll(async () => {
  await server?.close();
});

it('sends the token as each scheme carries it, and conforms', async () => {
  const report = await verify({ target: server.url, spec: SCHEMES, token: TOKEN, tokensValidated: true, runs: 8, seed: 11, concurrency: 2 });
  const failures = report.checks.flatMap((check) => check.findings.filter((f) => f.severity === 'failure').map((f) => `${check.id}: ${f.message}`));
  expect(failures).toEqual([]);
  const accepted = report.checks.find((check) => check.id === 'positive-acceptance');
  expect(accepted?.status).toBe('passed');
  // Every secured operation whose scheme a token can satisfy had valid requests sent (basic needs --auth basic:…).
  const skipped = report.coverage.filter((cell) => cell.check === 'positive-acceptance' && cell.skipped !== undefined).map((cell) => cell.operation);
  expect(skipped.sort()).toEqual(['basicThing (GET /basic)', 'bothThing (GET /both)']);
  expect(report.checks.find((check) => check.id === 'auth-enforced')?.status).toBe('passed');
  expect(renderJson(report)).not.toContain(TOKEN);
});
