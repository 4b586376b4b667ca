// The crash test's server: plain JavaScript so it runs on Node 20 without a TypeScript loader.
// Usage: node crash-child.mjs <dir of compiled src/store modules> <data dir>
// Prints "ready", then for each stdin line "<tenant> <id>" creates that plant and prints
// "ok <tenant> <id>" only once the create has resolved, i.e. once the log has synced it.
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [moduleDir, dataDir] = process.argv.slice(2);
if (!moduleDir || !dataDir) throw new Error('usage: crash-child.mjs <module dir> <data dir>');
const { openPlantLog } = await import(pathToFileURL(join(moduleDir, 'plant-log.js')).href);
const { createPlantStores } = await import(pathToFileURL(join(moduleDir, 'tenants.js')).href);

const { log } = await openPlantLog(dataDir);
const stores = createPlantStores(log.sinkFor);
process.stdout.write('ready\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const [tenant, id] = line.split(' ');
  stores
    .forTenant(tenant)
    .create({ id: BigInt(id), name: `plant ${id}` })
    .then(
      (result) => process.stdout.write(`${result.ok ? 'ok' : 'duplicate'} ${tenant} ${id}\n`),
      (error) => process.stdout.write(`failed ${tenant} ${id} ${error.message}\n`),
    );
});
