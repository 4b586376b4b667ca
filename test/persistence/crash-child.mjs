// The crash test's server: plain JavaScript so it runs on Node 20 without a TypeScript loader.
// Usage: node crash-child.mjs <dir of compiled src/store modules> <data dir> <compactAfterRecords> [<oks>]
// With <oks>, once it has answered that many it SIGKILLs itself the moment a compaction's temp
// file appears (inotify): the kill lands inside the compaction, between its steps.
// Prints "ready", then for each stdin line "<tenant> <id> keep|drop" creates that plant and prints
// "ok <tenant> <id>" only once the create has resolved, i.e. once the log has synced it. A "drop"
// plant is deleted again once created (printing nothing): the dead records make compaction run
// again and again, so a kill lands in it too.
import { watch } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [moduleDir, dataDir, compactAfter, killAfterOks] = process.argv.slice(2);
if (!moduleDir || !dataDir) throw new Error('usage: crash-child.mjs <module dir> <data dir> [compactAfterRecords]');
const load = (name) => import(pathToFileURL(join(moduleDir, name)).href);
const { openPlantLog } = await load('plant-log.js');
const { createResourceStores } = await load('tenants.js');
const { plantItem } = await load('plant-store.js');
const { durableBacking } = await load('durable-stores.js');

const log = await openPlantLog(dataDir, {
  compactAfterRecords: Number(compactAfter ?? 10_000),
  onProblem: (message) => process.stdout.write(`problem ${message.replace(/\n/g, ' ')}\n`),
});
const stores = createResourceStores({ backing: durableBacking(log) });
process.stdout.write('ready\n');

let oks = 0;
function answered() {
  oks += 1;
  if (killAfterOks === undefined || oks !== Number(killAfterOks)) return;
  watch(join(dataDir, 'tenants'), (_event, name) => {
    if (!name?.endsWith('.compacting')) return;
    process.stdout.write(`dying-in-compaction ${name}\n`);
    process.kill(process.pid, 'SIGKILL');
  });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const [tenant, id, fate] = line.split(' ');
  stores
    .forTenant(tenant)
    .then((items) => items.collection('plants'))
    .then(async (store) => {
      const result = await store.create(plantItem({ id: BigInt(id), name: `plant ${id}` }));
      if (fate === 'drop') {
        if (result.ok) await store.delete(BigInt(id));
        return;
      }
      process.stdout.write(`${result.ok ? 'ok' : 'duplicate'} ${tenant} ${id}\n`);
      if (result.ok) answered();
    })
    .catch((error) => process.stdout.write(`failed ${tenant} ${id} ${error.message}\n`));
});
