// @ts-check
// A bench "server" for the shared-store rows (docs/redis.md): its own redis-server (temp dir, free
// loopback port, append-only, appendfsync everysec: Redis' default) and N `plantstore serve
// --store redis://…` replicas; with --balance, a round-robin TCP balancer on --port spreads the
// load generator's connections over them (as a Kubernetes Service would, per connection), else
// the one replica listens on --port itself. Started and stopped by bench/lib/row.mjs like any row;
// SIGTERM stops everything it started and removes the temp dir.
//
//   node bench/redis-replicas.mjs --port P --host H [--replicas N] [--balance]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PLANTSTORE_CLI } from './targets.mjs';
import { freePort, sleep } from './lib/children.mjs';

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' }, replicas: { type: 'string' }, balance: { type: 'boolean' } },
});
const host = values.host ?? '127.0.0.1';
const port = Number(values.port);
const count = Number(values.replicas ?? '1');
const balance = values.balance === true;

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'plantstore-bench-redis-'));
const stopAll = () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => (stopAll(), process.exit(0)));
process.on('exit', stopAll);

/** @param {number} at */
async function open(at) {
  for (let tries = 0; tries < 300; tries += 1) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(at, host, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${host}:${at}`);
}

const redisPort = await freePort();
children.push(
  spawn('redis-server', ['--port', String(redisPort), '--bind', host, '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'], {
    stdio: 'ignore',
  }),
);
await open(redisPort);

const ports = balance ? await Promise.all(Array.from({ length: count }, freePort)) : [port];
for (const each of ports) {
  const args = [PLANTSTORE_CLI, 'serve', '--port', String(each), '--host', host, '--log-level', 'silent', '--store', `redis://${host}:${redisPort}`];
  children.push(spawn(process.execPath, args, { stdio: 'inherit' }));
}
await Promise.all(ports.map(open));

if (balance) {
  let next = 0;
  net
    .createServer((client) => {
      const backend = net.connect(/** @type {number} */ (ports[next++ % ports.length]), host);
      client.pipe(backend).pipe(client);
      const close = () => (client.destroy(), backend.destroy());
      client.on('error', close);
      backend.on('error', close);
    })
    .listen(port, host);
}
