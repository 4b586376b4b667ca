/**
 * The crash test: a child process creates plants through the real log and says "ok" for each one
 * only after its create resolved; it is SIGKILLed mid-burst, and every plant it said "ok" for must
 * be in the log when it is reopened.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPlantLog } from '../../src/store/plant-log.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const STORE_SOURCES = fileURLToPath(new URL('../../src/store/', import.meta.url));
const CHILD = fileURLToPath(new URL('./crash-child.mjs', import.meta.url));
const TENANTS = ['shared', tenantOfToken('crash-test')] as const;
const BURST = 20_000;
const CHUNK = 50;
const KILL_AFTER_OKS = 1_000;

let moduleDir: string;

// Compile src/store as it is now (not a possibly stale dist/) so the child runs the code under test.
beforeAll(async () => {
  moduleDir = join(await tempDir(), 'store');
  await mkdir(moduleDir);
  await writeFile(join(moduleDir, 'package.json'), '{"type":"module"}\n');
  for (const name of await readdir(STORE_SOURCES)) {
    if (!name.endsWith('.ts')) continue;
    const source = await readFile(join(STORE_SOURCES, name), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      fileName: name,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    await writeFile(join(moduleDir, name.replace(/\.ts$/, '.js')), outputText);
  }
});

function idOf(index: number): bigint {
  // Ids beyond 2^53 and at the bottom of int64, so exactness is checked too.
  return index % 2 === 0 ? 9007199254740993n + BigInt(index) : -(2n ** 63n) + BigInt(index);
}

describe('SIGKILL mid-burst', () => {
  it('keeps every plant whose create was answered', async () => {
    const dataDir = await tempDir();
    const child = spawn(process.execPath, [CHILD, moduleDir, dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined); // EPIPE once it is killed
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));

    const acked = new Map<string, Set<bigint>>(TENANTS.map((tenant) => [tenant, new Set()]));
    const failures: string[] = [];
    let oks = 0;
    let killedAt = -1;
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
            if (oks >= KILL_AFTER_OKS && killedAt < 0) {
              killedAt = oks;
              child.kill('SIGKILL');
            }
          } else failures.push(line);
        }
      });
      void exited.then(() => reject(new Error(`child exited before it was ready: ${stderr}`)));
    });
    await ready;

    // Feed the burst in small chunks so the kill lands while creates are still arriving and syncing.
    let sent = 0;
    while (sent < BURST && killedAt < 0) {
      const chunk = Array.from({ length: CHUNK }, (_, i) => `${TENANTS[(sent + i) % TENANTS.length]} ${idOf(sent + i)}\n`);
      child.stdin.write(chunk.join(''));
      sent += CHUNK;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await exited).toBe('SIGKILL');
    expect(failures).toEqual([]);
    expect(oks).toBeGreaterThanOrEqual(KILL_AFTER_OKS);
    expect(oks).toBeLessThan(sent); // killed mid-burst, not after it

    // The dead child's lock is taken over; whatever it answered must be there.
    const { log, recovery } = await openPlantLog(dataDir);
    await log.close();
    let recovered = 0;
    for (const tenant of TENANTS) {
      const ids = new Set(recovery.plants.get(tenant)?.map((plant) => plant.id));
      recovered += ids.size;
      const missing = [...(acked.get(tenant) ?? [])].filter((id) => !ids.has(id));
      expect(missing, `answered but lost in ${tenant}`).toEqual([]);
    }
    expect(recovered).toBe(recovery.records);
    expect(recovered).toBeGreaterThanOrEqual(oks);
    expect(recovered).toBeLessThanOrEqual(sent);
    // A write cut by the kill may leave one torn record at the end, nothing else.
    expect(recovery.skipped.length).toBeLessThanOrEqual(1);
    for (const skip of recovery.skipped) expect(skip.reason).toMatch(/^torn last record/);
    console.info(`crash test: ${sent} sent, ${oks} answered before SIGKILL, ${recovered} recovered, ${recovery.skipped.length} torn`);
  });
});
