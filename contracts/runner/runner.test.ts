/**
 * The runner end to end against tiny local Plant Stores: the same seed sends the same cases,
 * a failure is shrunk and its --seed/--replay reproduces it, set-up problems are SetupErrors,
 * and an emitted regression file fails against the faulty server and passes against a good one.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_CHECKS } from '../checks/index.js';
import { isJsonObject, parseJsonExact, type JsonValue } from '../generators/json-value.js';
import { emitRegressions } from '../reporters/regressions.js';
import { findingCurl } from '../reporters/finding.js';
import { replayFlagsOf } from '../reporters/replay.js';
import { replayOptionsOf } from './settings.js';
import type { VerifyOptions } from '../report.js';
import { bitLength, freshen, freshNeighbourBase, isEdgeId } from './ids.js';
import { SetupError, verify } from './verify.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Store {
  readonly url: string;
  readonly bodies: string[];
  close(): Promise<void>;
}

/**
 * A small correct Plant Store (ids exact and unique, 400 Error for anything wrong), or one
 * that answers 500 to a name with a non-ASCII character.
 */
async function startStore(fault?: 'non-ascii-500'): Promise<Store> {
  const ids = new Set<string>();
  const bodies: string[] = [];
  const error = (res: import('node:http').ServerResponse, code: number, message: string): void => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: code, message }));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || req.url !== '/plants') return void res.writeHead(404).end();
      bodies.push(text);
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) return error(res, 401, 'token');
      if (req.headers['content-type']?.split(';')[0]?.trim() !== 'application/json') return error(res, 400, 'type');
      let value: JsonValue;
      try {
        value = parseJsonExact(text); // integers beyond 2^53 come back as bigint: ids stay exact
      } catch {
        return error(res, 400, 'json');
      }
      if (!isJsonObject(value)) return error(res, 400, 'object');
      const { name, tag } = value;
      const id = typeof value.id === 'number' && Number.isInteger(value.id) ? BigInt(value.id) : value.id;
      if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return error(res, 400, 'name/tag');
      if (typeof id !== 'bigint' || id < -(2n ** 63n) || id >= 2n ** 63n) return error(res, 400, 'id');
      if (fault === 'non-ascii-500' && /[^\x00-\x7f]/.test(name))
        return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":500,"message":"boom"}');
      if (ids.has(BigInt(id).toString())) return error(res, 409, 'taken');
      ids.add(BigInt(id).toString());
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(tag === undefined ? { name } : { name, tag }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const BASE: Omit<VerifyOptions, 'target'> = { token: 't', runs: 20, timeoutMs: 2_000, concurrency: 4 };

/** The bodies sent, with run-specific (fresh) ids blanked and in a stable order. */
function normalised(bodies: readonly string[]): string[] {
  return bodies.map((b) => b.replace(/("id":)-?\d{13,}/g, '$1<fresh>')).sort();
}

describe('ids', () => {
  it('keeps edge values and small ids, freshens the low 40 bits of large ones (sign and size kept)', () => {
    for (const id of [0n, -1n, 5n, 2n ** 31n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 40n]) {
      expect(freshen(id, () => 123n)).toEqual({ value: id, freshness: 'literal' });
      expect(isEdgeId(id)).toBe(true);
    }
    const big = -(3n * 2n ** 60n + 17n);
    const fresh = freshen(big, () => 2n ** 64n - 1n);
    expect(fresh.freshness).toBe('fresh');
    expect(fresh.value < 0n).toBe(true);
    expect(bitLength(fresh.value)).toBe(bitLength(big));
    expect(fresh.value).not.toBe(big);
  });

  it('draws neighbour bases above 2^53 whose +1 and -1 round to the same double', () => {
    for (const random of [() => 0n, () => 2n ** 64n - 1n, () => 987654321987654321n]) {
      const base = freshNeighbourBase(random);
      expect(base > 2n ** 53n && base < 2n ** 62n).toBe(true);
      expect(Number(base + 1n)).toBe(Number(base));
      expect(Number(base - 1n)).toBe(Number(base));
    }
  });
});

describe('verify', () => {
  let good: Store;
  let faulty: Store;
  beforeAll(async () => {
    good = await startStore();
    faulty = await startStore('non-ascii-500');
  });
  afterAll(async () => {
    await good.close();
    await faulty.close();
  });

  it('passes a correct store, judging every check but the model (not asked for)', async () => {
    const report = await verify({ ...BASE, target: good.url, expectUniqueIds: true, stateful: false });
    // A random seed each time, printed on failure so that a flake can be replayed.
    // The bundled document has a create only: the lifecycle checks (list, read, update, delete) have nothing to judge.
    // It declares no response header either: response-headers-conformance is proven on optional-ids.yaml (catches-resource-faults).
    const lifecycle = new Set<string>([...LIFECYCLE_CHECKS, 'response-headers-conformance']);
    expect(
      report.checks
        .filter((c) => c.status !== 'passed' && !(lifecycle.has(c.id) && c.status === 'skipped'))
        .map((c) => `${c.id}: ${c.status} ${c.findings[0]?.message ?? ''}`),
      `seed ${report.seed}`,
    ).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.casesRun).toBeGreaterThan(100);
  });

  it('sends the same cases for the same seed, and other cases for another', async () => {
    const sent = async (seed: number): Promise<string[]> => {
      const store = await startStore();
      try {
        await verify({ ...BASE, target: store.url, seed });
        return normalised(store.bodies);
      } finally {
        await store.close();
      }
    };
    const first = await sent(7);
    expect(await sent(7)).toEqual(first);
    expect(await sent(8)).not.toEqual(first);
  });

  it('shrinks a failure to a minimal request, and --seed/--replay reproduces it', async () => {
    const report = await verify({ ...BASE, target: faulty.url, seed: 99, runs: 40 });
    expect(report.ok).toBe(false);
    const finding = report.checks.find((c) => c.id === 'no-server-errors')?.findings[0];
    expect(finding, JSON.stringify(report.checks.map((c) => [c.id, c.status]))).toBeDefined();
    if (finding === undefined) return;
    expect(finding.shrunk).toBe(true);
    expect(finding.path).toMatch(/^[\w#]+:\d+(:\d+)*$/);
    // Minimal: a one-character name, no tag, no extra properties.
    const body = JSON.parse(finding.request.body?.replace(/("id":)(-?\d+)/, '$1"$2"') ?? '{}') as Record<string, unknown>;
    expect([...String(body.name)]).toHaveLength(1);
    expect(Object.keys(body).sort()).toEqual(['id', 'name']);
    expect(findingCurl(finding)).toContain('curl ');
    expect(report.shrinkMs).toBeGreaterThanOrEqual(0);

    faulty.bodies.length = 0;
    const replayed = await verify({ ...BASE, target: faulty.url, seed: finding.seed, replay: finding.path ?? '' });
    expect(replayed.checks.find((c) => c.id === 'no-server-errors')?.status).toBe('failed');
    // The replay sent the shrunk case right after the opening probes of which ids the target takes
    // and how it refuses a taken one (runner/evidence.ts; its fresh id differs: it is drawn for each run).
    expect(normalised(faulty.bodies.slice(0, 4))).toContain(normalised([finding.request.body ?? ''])[0]);
  });

  it('refuses to start on an unreachable target, a bad document, bad options and a bad replay path', async () => {
    await expect(verify({ ...BASE, target: 'http://127.0.0.1:1' })).rejects.toThrow(SetupError);
    await expect(verify({ ...BASE, target: 'http://127.0.0.1:1' })).rejects.toThrow(/cannot be reached/);
    await expect(verify({ ...BASE, target: good.url, spec: '/nonexistent/plant-store.yaml' })).rejects.toThrow(SetupError);
    await expect(verify({ ...BASE, target: good.url, runs: 0 })).rejects.toThrow(/runs/);
    await expect(verify({ ...BASE, target: 'ftp://x' })).rejects.toThrow(SetupError);
    await expect(verify({ ...BASE, target: good.url, seed: 1, replay: 'nonsense!' })).rejects.toThrow(/--replay/);
    await expect(verify({ ...BASE, target: good.url, seed: 1, replay: 'nosuch:1' })).rejects.toThrow(/names no property/);
    await expect(verify({ ...BASE, target: good.url, seed: 1, replay: 'boundary:5000' })).rejects.toThrow(/sent no request/);
  });

  it('reports progress while it runs', async () => {
    const seen: number[] = [];
    await verify({ ...BASE, target: good.url, runs: 10, onProgress: (p) => seen.push(p.casesRun) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('writes regression files that fail against the faulty store, pass against a good one, and type-check', async () => {
    const report = await verify({ ...BASE, target: faulty.url, seed: 99, runs: 40 });
    // Inside the project (a dot directory, which neither tsc nor the project's vitest config picks up), so undici and vitest resolve.
    const dir = await mkdtemp(join(ROOT, 'contracts', '.regressions-'));
    try {
      const files = await emitRegressions(report, dir);
      expect(files.length).toBeGreaterThan(0);
      expect((await readdir(dir)).some((name) => /^no-server-errors-1\.test\.ts$/.test(name))).toBe(true);
      await writeFile(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['**/*.test.ts'] } };\n`);
      const vitest = (target: string) =>
        run(
          process.execPath,
          [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), 'no-server-errors-1'],
          {
            // The files never hold the run's token: they read it from CONTRACT_TOKEN.
            env: { ...process.env, CONTRACT_TARGET: target, CONTRACT_TOKEN: BASE.token },
          },
        ).then(
          () => 0,
          (error: { code?: number }) => error.code ?? -1,
        );
      expect(await vitest(faulty.url)).toBe(1);
      expect(await vitest(good.url)).toBe(0);
      const schemaFile = files.find((f) => f.finding.expectation?.kind === 'json-schema')?.path ?? files[0]?.path ?? '';
      const tsc = await run(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '--strict',
          '--noUncheckedIndexedAccess',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--types',
          'node',
          '--skipLibCheck',
          schemaFile,
        ],
        { cwd: ROOT },
      ).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? 'tsc failed',
      );
      expect(tsc, await readFile(schemaFile, 'utf8')).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('replay flags', () => {
  it('carry the options that shape the run, never a token itself', () => {
    expect(replayFlagsOf(replayOptionsOf({ target: 'http://x', token: 's3cret', spec: 'my spec.yaml', expectUniqueIds: true, strict: true }))).toBe(
      `--token "$TOKEN" --spec 'my spec.yaml' --expect-unique-ids --strict`,
    );
    expect(replayFlagsOf(replayOptionsOf({ target: 'http://x' }))).toBe('');
  });
});
