// @ts-check
// The servers `npm run bench` measures, in the order they run.
//
// To add a row, add one entry. Most plantstore rows are one line:
//   plantstore('plantstore-data-dir', 'plantstore --data-dir', ({ tmpDir }) => ['--data-dir', tmpDir], { tmpDir: true }),
//
// Entry fields:
//   id         short name, used by --only / BENCH_ONLY and in results JSON
//   label      the name printed in the table
//   role       'plantstore' (the row the bars judge) | 'prism' | 'floor' | undefined (an extra row)
//   command    ({ port, host, token, tmpDir }) => [file, args]   (cwd is the repo root)
//   requires   files (relative to the repo root) that must exist, else the row is skipped with a message
//   tmpDir     true: a fresh empty temp directory is made for the row (passed as tmpDir) and removed after
//   env        extra environment variables for the server
//   stdout     'pipe' (default: drained, last lines kept for error messages) | 'ignore' (/dev/null)
//   idMode     'int64' (default: some ids above 2^53) | 'safe' (all ids <= 2^53-1)
//   stateful   true: the server keeps a store; after the run a repeated id is sent and should be refused
//   startTimeoutMs  how long to wait for the first answer (default 15000)
//   optional   true: failing to start is reported but does not make the run exit non-zero
//   note       printed under the table
//   workload   'create' (default: POST /plants, distinct ids) | 'list' (GET /plants?limit=20) | 'cycle' (DELETE /plants/{id}, then POST it again)
//   preload    plants stored (POST /plants) before the warm-up, for the list and cycle workloads
//   compareTo  the id of the row this one is judged against (its floor), with `bar` the ratio it should reach
//   versus     the id of a row this one is also shown against (a ratio, no bar): two replicas vs one

/**
 * @typedef {{ port: number, host: string, token: string, tmpDir?: string | undefined }} TargetContext
 * @typedef {{
 *   id: string, label: string, role?: 'plantstore' | 'prism' | 'floor',
 *   command: (ctx: TargetContext) => [string, string[]],
 *   requires?: string[], tmpDir?: boolean, env?: Record<string, string>, stdout?: 'pipe' | 'ignore',
 *   idMode?: 'int64' | 'safe', stateful?: boolean, startTimeoutMs?: number, optional?: boolean, note?: string,
 *   workload?: 'create' | 'list' | 'cycle', preload?: number, compareTo?: string, bar?: number,
 *   versus?: string,
 * }} Target
 */

export const HOST = '127.0.0.1'; // loopback only
export const TOKEN = 'bench-token';
// BENCH_PLANTSTORE_CLI=/other/checkout/dist/src/cli/main.js benches another build (e.g. before/after a change).
export const PLANTSTORE_CLI = process.env.BENCH_PLANTSTORE_CLI || 'dist/src/cli/main.js';

const node = process.execPath;

/**
 * A `plantstore serve` row on a free loopback port with `--log-level silent`.
 * `extraArgs(ctx)` returns more flags; if they include --log-level, ours is left out.
 */
/**
 * @param {string} id
 * @param {string} label
 * @param {(ctx: TargetContext) => string[]} [extraArgs]
 * @param {Partial<Target>} [options]
 * @returns {Target}
 */
export function plantstore(id, label, extraArgs = () => [], options = {}) {
  return {
    id,
    label,
    requires: [PLANTSTORE_CLI],
    stateful: true,
    command: (ctx) => {
      const extra = extraArgs(ctx);
      const logLevel = extra.includes('--log-level') ? [] : ['--log-level', 'silent'];
      return [node, [PLANTSTORE_CLI, 'serve', '--port', String(ctx.port), '--host', ctx.host, ...logLevel, ...extra]];
    },
    ...options,
  };
}

/** @type {Target[]} */
export const targets = [
  {
    id: 'floor',
    label: 'floor (bare node:http)',
    role: 'floor',
    command: ({ port, host }) => [node, ['bench/floor-server.mjs', '--port', String(port), '--host', host]],
  },

  plantstore('plantstore', 'plantstore', () => [], { role: 'plantstore' }),
  plantstore('plantstore-token', 'plantstore --token', ({ token }) => ['--token', token]),
  plantstore('plantstore-log-info', 'plantstore --log-level info', () => ['--log-level', 'info'], {
    stdout: 'ignore',
    note: 'default logging, stdout to /dev/null',
  }),

  // Persistence: every 200 waits for its fsync (group commit shares one among concurrent creates). tmpDir: true makes its tmpDir.
  plantstore('plantstore-data-dir', 'plantstore --data-dir (fsync before each 200)', ({ tmpDir }) => ['--data-dir', /** @type {string} */ (tmpDir)], {
    tmpDir: true,
  }),

  // Shared store (docs/redis.md): each row starts its own redis-server and replicas (bench/redis-replicas.mjs).
  // On a 2-core machine two replicas show what sharing costs, not how it scales: Redis, the replicas and the
  // load generator share the same two cores.
  redisRow('plantstore-redis', 'plantstore --store redis (1 replica)', []),
  redisRow('plantstore-redis-lb1', 'plantstore --store redis, balancer + 1 replica', ['--balance', '--replicas', '1']),
  redisRow('plantstore-redis-lb2', 'plantstore --store redis, balancer + 2 replicas', ['--balance', '--replicas', '2'], 'plantstore-redis-lb1'),

  // The public Plant Store (list, create, delete by id), each row beside a node:http floor doing the same job on a Map.
  ...storeRows('list', 'GET /plants?limit=20, 10,000 stored', { preload: 10_000, bar: 0.6 }),
  ...storeRows('cycle', 'DELETE /plants/{id} + re-create', { preload: 1_000, bar: 0.5 }),

  {
    id: 'prism',
    label: 'prism mock',
    role: 'prism',
    requires: ['node_modules/@stoplight/prism-cli/dist/index.js'],
    command: ({ port, host }) => [
      node,
      [
        'node_modules/@stoplight/prism-cli/dist/index.js',
        'mock',
        'spec/plant-store.yaml',
        '-p',
        String(port),
        '-h',
        host,
        '--errors=false',
        '--multiprocess=false', // its cluster mode crashes on Node 20 (and is the default under NODE_ENV=production)
        '-v',
        'silent',
      ],
    ],
    // Prism reads `format: int64` as a bound of +-(2^53-1) and answers ids above it with 400.
    idMode: 'safe',
    startTimeoutMs: 30000,
    optional: true, // prism-cli 5.16 declares Node >= 24; we run Node 20

    note: 'ids kept <= 2^53-1 (prism refuses larger int64 ids with 400); stateless: repeated ids are not checked',
  },
];

/**
 * A workload on the public Plant Store: a floor row (bench/floor-server.mjs --store) and the plantstore row judged against it.
 * @param {'list' | 'cycle'} workload
 * @param {string} what
 * @param {{ preload: number, bar: number }} options
 * @returns {Target[]}
 */
function storeRows(workload, what, { preload, bar }) {
  return [
    {
      id: `floor-${workload}`,
      label: `floor ${what}`,
      command: ({ port, host }) => [node, ['bench/floor-server.mjs', '--store', '--port', String(port), '--host', host]],
      workload,
      preload,
    },
    plantstore(`plantstore-${workload}`, `plantstore ${what}`, () => ['--spec', 'spec/plant-store-public.yaml'], {
      stateful: false,
      workload,
      preload,
      compareTo: `floor-${workload}`,
      bar,
    }),
  ];
}

/**
 * A shared-store row: redis-server and plantstore replicas started by bench/redis-replicas.mjs.
 * @param {string} id
 * @param {string} label
 * @param {string[]} args
 * @param {string} [versus] the row this one is shown against (two replicas vs one)
 * @returns {Target}
 */
function redisRow(id, label, args, versus) {
  return {
    ...(versus ? { versus } : {}),
    id,
    label,
    requires: [PLANTSTORE_CLI],
    stateful: true,
    startTimeoutMs: 30000,
    optional: true, // needs redis-server (Debian's package)
    command: ({ port, host }) => [node, ['bench/redis-replicas.mjs', '--port', String(port), '--host', host, ...args]],
    note: 'server CPU counts the wrapper, Redis and the replicas (its subprocesses)',
  };
}
