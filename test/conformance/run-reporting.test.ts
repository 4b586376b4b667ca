/**
 * What a run says about itself: shrinking that tells the truth about a case that timed out (a hang
 * on a control character in the name, issue 10), the hint for a wrong base path, --fail-fast, and
 * --checks / the coverage report.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { renderConsoleReport } from '../../contracts/reporters/console.js';
import { renderJUnit } from '../../contracts/reporters/junit.js';
import { startPlantStoreDouble, type PlantStoreDouble } from './faulty-servers/plant-store-double.js';

const TOKEN = 'conformance-suite-token';

let correct: PlantStoreDouble;
beforeAll(async () => {
  correct = await startPlantStoreDouble();
});
afterAll(async () => {
  await correct.close();
});

/** The correct double behind a front that never answers a create whose name has a control character and 30+ characters. */
async function hangingOnControlCharacters(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let name: unknown;
    try {
      name = (JSON.parse(body) as { name?: unknown }).name;
    } catch {
      name = undefined;
    }
    if (typeof name === 'string' && [...name].length >= 30 && /[\u0000-\u001f]/.test(name)) return; // never answered
    const headers = { ...req.headers } as Record<string, string>;
    delete headers.host;
    delete headers.connection;
    const answer = await request(`${upstream}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'POST', headers, body: chunks.length === 0 ? null : body });
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(answer.headers))
      if (typeof value === 'string' && key !== 'transfer-encoding' && key !== 'connection') out[key] = value;
    res.writeHead(answer.statusCode, out);
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('shrinking a case that timed out', () => {
  it('shrinks with a shorter timeout per attempt, and says when it was cut short', async () => {
    const front = await hangingOnControlCharacters(correct.url);
    try {
      const report = await verify({ target: front.url, token: TOKEN, runs: 60, seed: 11, timeoutMs: 5_000, concurrency: 8, checks: ['no-server-errors'] });
      const finding = report.checks.find((check) => check.id === 'no-server-errors')?.findings.find((f) => f.response?.error?.kind === 'timeout');
      expect(finding, renderConsoleReport(report)).toBeDefined();
      const name = (JSON.parse(finding?.request.body ?? '{}') as { name?: string }).name ?? '';
      // Either the name is short, or the report says the shrinking did not finish (never a long name called "shrunk").
      if ([...name].length > 60)
        expect(finding?.shrinkNote).toMatch(/^shrinking cut short after \d+ steps \(time limit of [\d.]+ s, each attempt with a timeout of 1250 ms/);
      else expect(finding?.shrunk).toBe(true);
      if (finding?.shrinkNote !== undefined) {
        expect(renderConsoleReport(report)).toContain(finding.shrinkNote);
        expect(renderJUnit(report)).toContain(finding.shrinkNote);
      }
      // Shrinking time is reported apart from the run's.
      expect(report.shrinkMs).toBeGreaterThan(0);
      expect(renderConsoleReport(report)).toMatch(/shrinking \d+\.\d s/);
    } finally {
      await front.close();
    }
  }, 180_000);
});

describe('a wrong base path', () => {
  it('hints at it when nearly every answer is 404', async () => {
    const report = await verify({ target: `${correct.url}/api/v1`, token: TOKEN, runs: 10, seed: 3, concurrency: 4 });
    expect(report.hints.join('\n')).toMatch(/of \d+ answers were 404: is the base path right\? the document's servers say http:\/\/127\.0\.0\.1:4010/);
    expect(renderConsoleReport(report)).toMatch(/HINT: .*base path/);
  }, 120_000);

  it('says nothing when the path is right', async () => {
    const report = await verify({ target: correct.url, token: TOKEN, runs: 10, seed: 3, concurrency: 4 });
    expect(report.hints).toEqual([]);
  }, 120_000);
});

describe('--fail-fast, --checks and the coverage report', () => {
  it('stops sending at the first failure and still reports it', async () => {
    const front = await hangingOnControlCharacters(correct.url);
    try {
      const full = await verify({ target: front.url, token: TOKEN, runs: 30, seed: 5, timeoutMs: 300, concurrency: 2, checks: ['no-server-errors'] });
      const fast = await verify({
        target: front.url,
        token: TOKEN,
        runs: 30,
        seed: 5,
        timeoutMs: 300,
        concurrency: 2,
        checks: ['no-server-errors'],
        failFast: true,
      });
      expect(fast.ok).toBe(false);
      expect(fast.casesRun).toBeLessThan(full.casesRun);
      expect(fast.stoppedEarly).toMatch(/--fail-fast: stopped after the first failure/);
    } finally {
      await front.close();
    }
  }, 180_000);

  it('judges only the checks asked for and lists the rest as skipped, per operation, status and check', async () => {
    const report = await verify({ target: correct.url, token: TOKEN, runs: 10, seed: 3, concurrency: 4, excludeChecks: ['status-conformance'] });
    expect(report.checks.find((c) => c.id === 'status-conformance')?.cases).toBe(0);
    const cells = report.coverage.filter((cell) => cell.operation === 'createPlant (POST /plants)');
    expect(cells.find((cell) => cell.check === 'status-conformance')?.skipped).toBe('excluded by --exclude-checks');
    expect(cells.filter((cell) => cell.check === 'positive-acceptance').map((cell) => cell.status)).toContain('200');
    expect(cells.filter((cell) => cell.check === 'negative-rejection').map((cell) => cell.status)).toContain('400');
    expect(cells.find((cell) => cell.check === 'stateful-model')?.skipped).toMatch(/--stateful/);
    const junit = renderJUnit(report);
    expect(junit).toMatch(
      /<testcase classname="plantstore.conformance.coverage" name="createPlant \(POST \/plants\): status-conformance" time="0"><skipped message="excluded by --exclude-checks"\/>/,
    );
    expect(renderConsoleReport(report)).toMatch(/status-conformance\s+skipped: excluded by --exclude-checks/);
  }, 120_000);
});
