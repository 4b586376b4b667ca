// @ts-check
// The request path's own cost, this build against another, in ONE process: each build's request
// listener (captured from node:http's createServer as startServer makes it) is handed in-memory
// requests (IncomingMessage with the body pushed, ServerResponse with no socket), in alternating
// batches, so both builds run under the same machine load. No socket, no load generator: what is
// left is what the server's own JavaScript costs per request (and the GC it causes). On a busy
// machine separate-process rows swing with other work; these batches are what to compare.
//
// The build loaded first runs cheaper in a shared process: the same build against itself read
// 0.85–0.93 (28 Nov 2026). So with --base the comparison runs twice, each time in a fresh child
// process, once with each build loaded first, and the ratio quoted is the geometric mean of the
// two, in which that effect cancels (each child's ratio is printed too).
//
//   node bench/request-path.mjs --base /old/checkout [--workload create|list|cycle] [--batches 40] [--batch 1000]
//   node bench/request-path.mjs --base floor          # against a bare handler doing the floor's job
//   node bench/request-path.mjs --heap                # this build only: bytes allocated per request (sampled)
//
// --base is a checkout with its own dist/ (or `floor`). Prints the median CPU µs per request of
// each and the ratio. list and cycle serve spec/plant-store-public.yaml, as bench/run.mjs's rows do.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/config.mjs';
import { median } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    workload: { type: 'string', default: 'create' },
    batches: { type: 'string', default: '40' },
    batch: { type: 'string', default: '1000' },
    heap: { type: 'boolean', default: false },
    // Internal: one in-process comparison with the named build loaded first; prints a JSON line.
    child: { type: 'boolean', default: false },
    first: { type: 'string', default: 'this' },
    pairs: { type: 'string', default: '1' },
  },
});
const workload = values.workload;
if (!['create', 'list', 'cycle'].includes(workload ?? '')) throw new Error('--workload is create, list or cycle');
setTimeout(() => {
  console.error('request-path: time limit (300 s) reached');
  process.exit(2);
}, 300_000).unref();

/** @type {import('node:http').RequestListener | undefined} */
let captured;
const createServer = http.createServer;
/** @param {[import('node:http').ServerOptions | import('node:http').RequestListener | undefined, import('node:http').RequestListener | undefined]} args */
const capturing = (...args) => {
  captured = /** @type {import('node:http').RequestListener | undefined} */ (args.find((arg) => typeof arg === 'function'));
  // The overloads are passed through as they are.
  return createServer(.../** @type {[import('node:http').ServerOptions, import('node:http').RequestListener]} */ (args));
};
http.createServer = /** @type {typeof http.createServer} */ (capturing);
syncBuiltinESMExports();

/** The floor's job (bench/floor-server.mjs) as a bare listener. @type {import('node:http').RequestListener} */
function floorListener(req, res) {
  /** @type {Buffer[]} */
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const plant = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ name: plant?.name, tag: plant?.tag });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

/** @param {string} root */
async function listenerOf(root) {
  if (root === 'floor') return floorListener;
  const { startServer } = await import(path.resolve(root, 'dist/src/index.js'));
  const spec = workload === 'create' ? {} : { spec: path.join(ROOT, 'spec/plant-store-public.yaml') };
  captured = undefined;
  await startServer({ port: 0, host: '127.0.0.1', ...spec });
  if (captured === undefined) throw new Error(`${root}: no request listener was created`);
  return captured;
}

if (values.base && !values.child && !values.heap) {
  await compareBothOrders(values.base);
  process.exit(0);
}

/**
 * Runs this script as a child once with each build loaded first (`--pairs` times, alternating which
 * order goes first), and prints each child's medians and the position-cancelled ratio.
 * @param {string} base
 */
async function compareBothOrders(base) {
  const { execFileSync } = await import('node:child_process');
  const passed = ['--base', base, '--workload', String(workload), '--batches', String(values.batches), '--batch', String(values.batch)];
  /** @type {number[]} */
  const ratios = [];
  /** @type {{ this: number[], base: number[] }} */
  const byFirst = { this: [], base: [] };
  for (let pair = 0; pair < Number(values.pairs); pair++) {
    for (const first of pair % 2 === 0 ? ['this', 'base'] : ['base', 'this']) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...passed, '--child', '--first', first], { encoding: 'utf8' });
      const line = out.trim().split('\n').pop() ?? '{}';
      /** @type {{ this: number, base: number }} */
      const medians = JSON.parse(line);
      const ratio = medians.this / medians.base;
      byFirst[/** @type {'this' | 'base'} */ (first)].push(ratio);
      ratios.push(ratio);
      console.log(`  ${first} loaded first: this ${medians.this.toFixed(2)} µs, base ${medians.base.toFixed(2)} µs, this ÷ base ${ratio.toFixed(3)}`);
    }
  }
  const geometric = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
  console.log(`${workload}, ${values.batches} alternating batches of ${values.batch} requests per child, CPU µs per request (medians):`);
  console.log(
    `  this ÷ base: ${geometric.toFixed(3)} (geometric mean over both load orders; this first ${byFirst.this.map((r) => r.toFixed(3)).join(' ')}, base first ${byFirst.base.map((r) => r.toFixed(3)).join(' ')})`,
  );
}

const thisBuild = { name: 'this', root: ROOT };
const builds = !values.base
  ? [thisBuild]
  : values.first === 'base'
    ? [{ name: 'base', root: values.base }, thisBuild]
    : [thisBuild, { name: 'base', root: values.base }];
/** @type {import('node:http').RequestListener[]} */
const listeners = [];
for (const build of builds) listeners.push(await listenerOf(build.root));

const socket = new net.Socket();
const TWO_53 = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;
const next = builds.map(() => 1_000_000);
/** @type {string[][]} */
const cycleIds = builds.map(() => []);
/** @type {Record<number, number>[]} */
const statuses = builds.map(() => ({}));
/** Build `b`'s entry of a per-build list: every build has one. @template T @param {T[]} list @param {number} b */
const of = (list, b) => /** @type {T} */ (list[b]);

/**
 * One request through build `b`'s listener; resolves once the answer was ended and Node's callbacks ran.
 * @param {number} b @param {string} method @param {string} url @param {string} text @returns {Promise<void>}
 */
function send(b, method, url, text) {
  const req = new http.IncomingMessage(socket);
  Object.assign(req, { method, url, httpVersionMajor: 1, httpVersionMinor: 1, httpVersion: '1.1' });
  req.headers = {
    host: '127.0.0.1',
    connection: 'keep-alive',
    authorization: 'Bearer bench-token',
    'content-type': 'application/json',
    'content-length': String(text.length),
  };
  const res = new http.ServerResponse(req);
  return new Promise((resolve) => {
    const end = res.end;
    /** @this {import('node:http').ServerResponse} @param {Parameters<typeof end>} args */
    function ended(...args) {
      const result = end.apply(this, args);
      const counts = of(statuses, b);
      counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
      setImmediate(resolve);
      return result;
    }
    // Wrapped as it is: every overload is passed through.
    res.end = /** @type {typeof end} */ (ended);
    of(listeners, b)(req, res);
    if (text !== '') req.push(Buffer.from(text));
    req.complete = true;
    req.push(null);
  });
}

/** The bench's bodies (bench/load.mjs): a quarter of the ids above 2^53, a fifth without a tag. @param {number} b */
function create(b) {
  const k = of(next, b);
  next[b] = k + 1;
  const bucket = k % 8;
  const id = bucket === 3 ? (TWO_53 + BigInt(k)).toString() : bucket === 7 ? (INT64_MAX - BigInt(k)).toString() : String(k);
  return send(b, 'POST', '/plants', k % 5 === 0 ? `{"name":"Plant ${k}","id":${id}}` : `{"name":"Plant ${k}","tag":"aroid","id":${id}}`);
}

/** One request (a cycle: two) of `phase` to build `b`. @param {number} b @param {string} phase */
async function one(b, phase) {
  if (phase === 'create') return create(b);
  if (phase === 'preload') {
    const k = of(next, b);
    next[b] = k + 1;
    of(cycleIds, b).push(String(k));
    return send(b, 'POST', '/plants', `{"name":"Plant ${k}","tag":"aroid","id":${k}}`);
  }
  if (phase === 'list') return send(b, 'GET', '/plants?limit=20', '');
  // cycle: a DELETE and the create of the same id, counted as one.
  const id = of(cycleIds, b).shift();
  await send(b, 'DELETE', `/plants/${id}`, '');
  await send(b, 'POST', '/plants', `{"name":"Plant ${id}","tag":"aroid","id":${id}}`);
  of(cycleIds, b).push(/** @type {string} */ (id));
}

/** `count` requests to build `b`, 16 at a time. @param {number} b @param {number} count @param {string} [phase] */
async function drive(b, count, phase = /** @type {string} */ (workload)) {
  let left = count;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await one(b, phase);
    }),
  );
}

// Warm-up (and the stored items list and cycle need: 10,000 and 1,000, as bench/run.mjs's rows).
for (let b = 0; b < builds.length; b++) {
  if (workload !== 'create') await drive(b, workload === 'list' ? 10_000 : 1_000, 'preload');
  await drive(b, 5_000);
}

const batch = Number(values.batch);
if (values.heap) {
  const inspector = await import('node:inspector');
  const session = new inspector.Session();
  session.connect();
  /** @param {string} method @param {object} params @returns {Promise<object | undefined>} */
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
  await drive(0, batch * 10);
  const { profile } = /** @type {import('node:inspector').HeapProfiler.StopSamplingReturnType} */ (await post('HeapProfiler.stopSampling', {}));
  let total = 0;
  /** @type {Map<string, number>} bytes by allocating function */
  const sites = new Map();
  /** @param {import('node:inspector').HeapProfiler.SamplingHeapProfileNode} node */
  const walk = (node) => {
    total += node.selfSize;
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const requests = batch * 10;
  console.log(`${workload}: ${(total / requests).toFixed(0)} bytes allocated per request (sampled); the largest allocating functions:`);
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${(bytes / requests).toFixed(0).padStart(6)}  ${site}`);
  process.exit(0);
}

/** @type {number[][]} */
const cpu = builds.map(() => []);
for (let round = 0; round < Number(values.batches); round++) {
  const order = round % 2 === 0 ? [...builds.keys()] : [...builds.keys()].reverse();
  for (const b of order) {
    const before = process.cpuUsage();
    await drive(b, batch);
    const used = process.cpuUsage(before);
    of(cpu, b).push((used.user + used.system) / batch);
  }
}
console.log(`${workload}, ${values.batches} alternating batches of ${batch} requests, CPU µs per request (median):`);
builds.forEach((build, b) => console.log(`  ${build.name.padEnd(5)} ${median(of(cpu, b)).toFixed(2).padStart(7)}  statuses ${JSON.stringify(statuses[b])}`));
if (values.child) console.log(JSON.stringify(Object.fromEntries(builds.map((build, b) => [build.name, median(of(cpu, b))]))));
process.exit(0);
