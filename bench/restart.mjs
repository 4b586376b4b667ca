// Measures a restart with a big plant log: writes N plants through the real log code, then times
// openPlantLog + building the stores (the shared tenant loaded, as `serve` does at start) and the
// heap the plants take. Not a test (no timing in tests): run by hand, after `npm run build`,
//   node --expose-gc bench/restart.mjs [plants, default 1000000]
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PLANTS = Number(process.argv[2] ?? 1_000_000);
const work = await mkdtemp(join(tmpdir(), 'plantstore-restart-'));
try {
  const { openPlantLog, tenantLogPath } = await import('../dist/src/store/plant-log.js');
  const { createResourceStores } = await import('../dist/src/store/tenants.js');
  const { plantItem } = await import('../dist/src/store/plant-store.js');
  const { durableBacking } = await import('../dist/src/store/durable-stores.js');

  const dataDir = join(work, 'data');
  const writing = await openPlantLog(dataDir);
  const { log } = await writing.openTenant('shared', {});
  const sink = log.sinkFor('plants');
  const idOf = (i) => (i % 2 === 0 ? 9007199254740993n + BigInt(i) : BigInt(i));
  for (let start = 0; start < PLANTS; start += 10_000) {
    const batch = [];
    for (let i = start; i < Math.min(PLANTS, start + 10_000); i += 1) {
      const plant = i % 4 === 0 ? { id: idOf(i), name: `Monstera ${i}`, tag: 'aroid' } : { id: idOf(i), name: `Monstera ${i}` };
      batch.push(sink({ kind: 'create', item: plantItem(plant) }));
    }
    await Promise.all(batch);
  }
  await writing.close();
  const bytes = (await stat(tenantLogPath(dataDir, 'shared'))).size;

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const reopened = await openPlantLog(dataDir);
  const stores = createResourceStores({ backing: durableBacking(reopened) });
  const store = (await stores.forTenant('shared')).collection('plants');
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const count = await store.count();
  if (count !== PLANTS) throw new Error(`restored ${count} plants, not ${PLANTS}`);
  const perPlant = (heapAfter - heapBefore) / PLANTS;
  console.log(
    `restart: ${PLANTS} plants (${(bytes / 2 ** 20).toFixed(1)} MiB log) reopened and loaded in ${(elapsedMs / 1000).toFixed(2)} s; ` +
      `heap ${((heapAfter - heapBefore) / 2 ** 20).toFixed(0)} MiB, ${perPlant.toFixed(0)} bytes per plant${globalThis.gc ? '' : ' (run with --expose-gc for a settled heap)'}`,
  );
  await reopened.close();
} finally {
  await rm(work, { recursive: true, force: true });
}
