/**
 * The crash test: a child process creates plants through the real log and says "ok" for each one
 * only after its create resolved; it is SIGKILLed mid-burst (and, in later rounds, while a
 * compaction's temp file is there: it kills itself then), and every plant it said "ok" for must be in the log when it
 * is reopened.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPlantLog, TENANTS_DIR } from '../../src/store/plant-log.js';
import { TEMP_SUFFIX } from '../../src/store/tenant-log.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const SOURCES = fileURLToPath(new URL('../../src/', import.meta.url));
const CHILD = fileURLToPath(new URL('./crash-child.mjs', import.meta.url));
const TENANTS = ['shared', tenantOfToken('crash-test')] as const;
/** The most lines fed in one life; the kill must come before them all are sent. */
const BURST = 400_000;
/** Lines per millisecond: slow enough that batches stay small and compactions frequent. */
const CHUNK = 10;
const KILL_AFTER_OKS = 150;
/** One plant in this many is kept; the rest are created and deleted again, dead records for compaction. */
const KEEP_EVERY = 10;
const ROUNDS = 4;
/** Small, so compactions come one after another and the kills can land in them. */
const COMPACT_AFTER = 100;

let moduleDir: string;

// Compile src/store, and the core it imports, as they are now (not a possibly stale dist/) so the
// child runs the code under test. The folders keep their places, so relative imports still resolve.
beforeAll(async () => {
  const root = await tempDir();
  moduleDir = join(root, 'store');
  await writeFile(join(root, 'package.json'), '{"type":"module"}\n');
  for (const folder of ['store', 'core']) {
    for (const name of await readdir(join(SOURCES, folder), { recursive: true })) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const source = await readFile(join(SOURCES, folder, name), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        fileName: name,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      });
      const target = join(root, folder, name.replace(/\.ts$/, '.js'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, outputText);
    }
  }
});

function idOf(index: number): bigint {
  // Ids beyond 2^53 and at the bottom of int64, so exactness is checked too.
  return index % 2 === 0 ? 9007199254740993n + BigInt(index) : -(2n ** 63n) + BigInt(index);
}

/** A temp file of a compaction under way, if there is one now. */
function compactionUnderWay(dataDir: string): boolean {
  const dir = join(dataDir, TENANTS_DIR);
  return existsSync(dir) && readdirSync(dir).some((name) => name.endsWith(TEMP_SUFFIX));
}

interface Round {
  readonly oks: number;
  readonly sent: number;
  /** A compaction's temp file was there when the child died. */
  readonly inCompaction: boolean;
}

/**
 * One life of the child: creates (one in KEEP_EVERY kept, the others created and deleted again, so
 * dead records keep triggering compaction) until SIGKILL; every kept plant it answered is added to `acked`.
 */
async function liveAndDie(dataDir: string, first: number, acked: Map<string, Set<bigint>>, inCompaction: boolean): Promise<Round> {
  const args = [CHILD, moduleDir, dataDir, String(COMPACT_AFTER), ...(inCompaction ? [String(KILL_AFTER_OKS)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined); // EPIPE once it is killed
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const failures: string[] = [];
  let oks = 0;
  let killed = false;
  let diedInCompaction = false;
  const kill = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  void exited.then(() => (killed = true));
  const ready = new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? ''; // a line cut by the kill is not an answer
      for (const line of lines) {
        const [word, tenant = '', id = ''] = line.split(' ');
        if (word === 'ready') resolve();
        else if (word === 'ok') {
          acked.get(tenant)?.add(BigInt(id));
          oks += 1;
          // A mid-burst kill from here; in a compaction round the child kills itself (a fallback kill if none comes).
          if (!killed && (inCompaction ? oks > 20 * KILL_AFTER_OKS : oks >= KILL_AFTER_OKS)) kill();
        } else if (word === 'dying-in-compaction') {
          diedInCompaction = true;
        } else failures.push(line);
      }
    });
    void exited.then(() => reject(new Error(`child exited before it was ready: ${stderr}`)));
  });
  await ready;

  // Feed the burst in small chunks so the kill lands while creates are still arriving and syncing.
  let sent = 0;
  while (sent < BURST && !killed) {
    const chunk = Array.from({ length: CHUNK }, (_, i) => {
      const index = first + sent + i;
      return `${TENANTS[index % TENANTS.length]} ${idOf(index)} ${Math.floor(index / TENANTS.length) % KEEP_EVERY === 0 ? 'keep' : 'drop'}\n`;
    });
    child.stdin.write(chunk.join(''));
    sent += CHUNK;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(await exited).toBe('SIGKILL');
  expect(failures).toEqual([]);
  return { oks, sent, inCompaction: diedInCompaction && compactionUnderWay(dataDir) };
}

describe('SIGKILL mid-burst and mid-compaction', () => {
  it('keeps every plant whose create was answered, across kills, some during compaction', async () => {
    const dataDir = await tempDir();
    const acked = new Map<string, Set<bigint>>(TENANTS.map((tenant) => [tenant, new Set()]));
    const rounds: Round[] = [];
    let first = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const result = await liveAndDie(dataDir, first, acked, round > 0);
      rounds.push(result);
      first += result.sent;
      expect(result.oks).toBeGreaterThanOrEqual(KILL_AFTER_OKS);
      expect(result.sent).toBeLessThan(BURST); // killed mid-burst, not after it

      // The dead child's lock is taken over, its temp file removed; whatever it answered must be there.
      const log = await openPlantLog(dataDir);
      expect(compactionUnderWay(dataDir)).toBe(false);
      for (const tenant of TENANTS) {
        const recovery = (await log.openTenant(tenant, undefined))?.recovery;
        const ids = new Set(recovery?.plants.map((plant) => plant.id));
        const missing = [...(acked.get(tenant) ?? [])].filter((id) => !ids.has(id));
        expect(missing, `answered but lost in ${tenant} after round ${round}`).toEqual([]);
        // A write cut by the kill may leave one torn record at the end, nothing else.
        expect(recovery?.skipped.length).toBeLessThanOrEqual(1);
        for (const skip of recovery?.skipped ?? []) expect(skip.reason).toMatch(/^torn last record/);
      }
      await log.close();
    }
    const answered = [...acked.values()].reduce((sum, ids) => sum + ids.size, 0);
    console.info(
      `crash test: ${ROUNDS} kills, ${answered} kept plants answered and all recovered; kills during a compaction: ${rounds.filter((r) => r.inCompaction).length}`,
    );
    expect(rounds.some((r) => r.inCompaction)).toBe(true);
  }, 120_000);
});
