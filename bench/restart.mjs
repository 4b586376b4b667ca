// @ts-check
// Measures a restart with a big plant log: writes N plants through the real log code, then times
// openPlantLog + building the stores (the shared tenant loaded, as `serve` does at start) and the
// heap the plants take. Not a test (no timing in tests): run by hand, after `npm run build`,
//   node --expose-gc bench/restart.mjs [plants, default 1000000] [--rounds 5] [--base /old/checkout]
// --base: also time another build (a checkout with its own `dist/`, e.g. a `git worktree` of an
// older commit), each build reading a log its own code wrote, rounds alternating so both see the
// same machine load; prints each build's median and the ratio. Every load runs in a fresh child
// process (a clean heap), the log of each build written once beforehand.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const ROOT = resolve(SELF, '..', '..');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string' },
    base: { type: 'string' },
    // Internal: what one child does (write | load), with which build, in which data dir.
    child: { type: 'string' },
    root: { type: 'string' },
    data: { type: 'string' },
  },
});
const PLANTS = Number(positionals[0] ?? 1_000_000);

if (values.child) await child(values.child, values.root ?? ROOT, values.data ?? '');
else await main();

async function main() {
  const rounds = Number(values.rounds ?? (values.base ? 5 : 1));
  const roots = [ROOT, ...(values.base ? [resolve(values.base)] : [])];
  const work = await mkdtemp(join(tmpdir(), 'plantstore-restart-'));
  try {
    /** @type {{ name: string, root: string, data: string, runs: { seconds: number, cpuSeconds: number, perPlant: number }[] }[]} */
    const builds = [];
    for (const [index, root] of roots.entries()) {
      const build = { name: index === 0 ? 'this build' : `base ${root}`, root, data: join(work, `data-${index}`), runs: [] };
      await run('write', build);
      const bytes = (await stat(join(build.data, 'tenants', 'shared.jsonl'))).size;
      console.log(`${build.name}: ${PLANTS} plants, ${(bytes / 2 ** 20).toFixed(1)} MiB log`);
      builds.push(build);
    }
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which build goes first, so neither always follows the other.
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const result = JSON.parse(await run('load', build));
        build.runs.push(result);
        console.log(
          `  round ${round + 1}: ${build.name}: ${result.seconds.toFixed(2)} s (${result.cpuSeconds.toFixed(2)} s CPU), ${result.perPlant.toFixed(0)} bytes per plant`,
        );
      }
    }
    // CPU time counts the work done whatever else the machine runs; wall time is what a user waits.
    const medians = builds.map(({ name, runs }) => ({
      name,
      seconds: median(runs.map((result) => result.seconds)),
      cpuSeconds: median(runs.map((result) => result.cpuSeconds)),
      perPlant: median(runs.map((result) => result.perPlant)),
    }));
    for (const { name, seconds, cpuSeconds, perPlant } of medians) {
      console.log(
        `restart: ${name}: median ${seconds.toFixed(2)} s (${cpuSeconds.toFixed(2)} s CPU) over ${rounds} round(s), ${perPlant.toFixed(0)} bytes per plant`,
      );
    }
    const [self, base] = medians;
    if (self && base)
      console.log(`restart: this build / base: ${(self.seconds / base.seconds).toFixed(2)} wall, ${(self.cpuSeconds / base.cpuSeconds).toFixed(2)} CPU`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs one child (write or load) and answers its stdout. @param {string} job @param {{ root: string, data: string }} build */
function run(job, { root, data }) {
  return new Promise((done, fail) => {
    const args = ['--expose-gc', SELF, String(PLANTS), '--child', job, '--root', root, '--data', data];
    const process_ = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    process_.stdout.on('data', (chunk) => (out += chunk));
    process_.once('error', fail);
    process_.once('exit', (code) => (code === 0 ? done(out) : fail(new Error(`${job} with ${root} exited ${code}`))));
  });
}

/**
 * One job with the build at `root`. Builds before the item store (no createResourceStores) kept
 * plants in a store of their own: the same steps through their API.
 * @param {string} job @param {string} root @param {string} dataDir
 */
async function child(job, root, dataDir) {
  const load = (/** @type {string} */ path) => import(pathToFileURL(join(root, 'dist', 'src', 'store', path)).href);
  const { openPlantLog } = await load('plant-log.js');
  const tenants = await load('tenants.js');
  const { durableBacking } = await load('durable-stores.js');
  const items = typeof tenants.createResourceStores === 'function';
  if (job === 'write') {
    const { plantItem } = await load('plant-store.js');
    const writing = await openPlantLog(dataDir);
    const { log } = await writing.openTenant('shared', items ? {} : []);
    const sink = items ? log.sinkFor('plants') : log.sink;
    const idOf = (/** @type {number} */ i) => (i % 2 === 0 ? 9007199254740993n + BigInt(i) : BigInt(i));
    for (let start = 0; start < PLANTS; start += 10_000) {
      const batch = [];
      for (let i = start; i < Math.min(PLANTS, start + 10_000); i += 1) {
        const plant = i % 4 === 0 ? { id: idOf(i), name: `Monstera ${i}`, tag: 'aroid' } : { id: idOf(i), name: `Monstera ${i}` };
        batch.push(sink(items ? { kind: 'create', item: plantItem(plant) } : { kind: 'create', plant }));
      }
      await Promise.all(batch);
    }
    await writing.close();
    return;
  }
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const reopened = await openPlantLog(dataDir);
  const store = items
    ? (await tenants.createResourceStores({ backing: durableBacking(reopened) }).forTenant('shared')).collection('plants')
    : await tenants.createPlantStores({ backing: durableBacking(reopened) }).forTenant('shared');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { user, system } = process.cpuUsage(cpuBefore);
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const count = await store.count();
  if (count !== PLANTS) throw new Error(`restored ${count} plants, not ${PLANTS}`);
  await reopened.close();
  console.log(JSON.stringify({ seconds, cpuSeconds: (user + system) / 1e6, perPlant: (heapAfter - heapBefore) / PLANTS }));
}
