// Measures a restart with a big plant log: writes N plants through the real log code, then times
// openPlantLog + building the stores (the shared tenant loaded, as `serve` does at start) and the
// heap the plants take. Not a test (no timing in tests): run by hand,
//   node --expose-gc test/store/measure-restart.mjs [plants, default 1000000]
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const PLANTS = Number(process.argv[2] ?? 1_000_000);
const work = await mkdtemp(join(tmpdir(), 'plantstore-restart-'));
try {
  // Compile src/store as it is now, as the crash test does.
  const sources = fileURLToPath(new URL('../../src/store/', import.meta.url));
  const modules = join(work, 'store');
  await mkdir(modules);
  await writeFile(join(modules, 'package.json'), '{"type":"module"}\n');
  for (const name of await readdir(sources)) {
    if (!name.endsWith('.ts')) continue;
    const { outputText } = ts.transpileModule(await readFile(join(sources, name), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    await writeFile(join(modules, name.replace(/\.ts$/, '.js')), outputText);
  }
  const load = (name) => import(pathToFileURL(join(modules, name)).href);
  const { openPlantLog, tenantLogPath } = await load('plant-log.js');
  const { createPlantStores } = await load('tenants.js');
  const { durableBacking } = await load('durable-stores.js');

  const dataDir = join(work, 'data');
  const writing = await openPlantLog(dataDir);
  const { log } = await writing.openTenant('shared', []);
  const idOf = (i) => (i % 2 === 0 ? 9007199254740993n + BigInt(i) : BigInt(i));
  for (let start = 0; start < PLANTS; start += 10_000) {
    const batch = [];
    for (let i = start; i < Math.min(PLANTS, start + 10_000); i += 1) {
      const plant = i % 4 === 0 ? { id: idOf(i), name: `Monstera ${i}`, tag: 'aroid' } : { id: idOf(i), name: `Monstera ${i}` };
      batch.push(log.sink({ kind: 'create', plant }));
    }
    await Promise.all(batch);
  }
  await writing.close();
  const bytes = (await stat(tenantLogPath(dataDir, 'shared'))).size;

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const reopened = await openPlantLog(dataDir);
  const stores = createPlantStores({ backing: durableBacking(reopened) });
  const store = await stores.forTenant('shared');
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const count = await store.count();
  if (count !== PLANTS) throw new Error(`restored ${count} plants, not ${PLANTS}`);
  const perPlant = (heapAfter - heapBefore) / PLANTS;
  console.log(`restart: ${PLANTS} plants (${(bytes / 2 ** 20).toFixed(1)} MiB log) reopened and loaded in ${(elapsedMs / 1000).toFixed(2)} s; ` +
    `heap ${((heapAfter - heapBefore) / 2 ** 20).toFixed(0)} MiB, ${perPlant.toFixed(0)} bytes per plant${globalThis.gc ? '' : ' (run with --expose-gc for a settled heap)'}`);
  await reopened.close();
} finally {
  await rm(work, { recursive: true, force: true });
}
