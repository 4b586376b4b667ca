// @ts-check
// The load generator: runs autocannon (programmatic API) in its own process,
// forked by bench/run.mjs, so it never shares an event loop with a server.
//
// Config comes as JSON in argv[2]; results go back over the IPC channel:
//   { type: 'measuring' }              when the warm-up is over and measuring starts
//   { type: 'result', warmup, measure, ids }
//   { type: 'error', message }
//
// Distinct ids: every request body gets a fresh id from one counter shared by
// all connections. All connections live on this one JS thread, so a plain
// counter is already unique across connections (autocannon resets the
// per-connection `context` after each pass over `requests`, so it cannot hold
// a per-connection counter). The counter continues from warm-up into the
// measurement, so a stateful store never sees an id twice.
// In `int64` mode some ids lie above 2^53 (written as digits in the JSON text):
// a server that parses them into doubles would merge neighbours (2^53+1 and
// 2^53+2 both become 2^53+2) and answer duplicates — which shows up as non-2xx.
import autocannon from 'autocannon';

/** @typedef {import('autocannon').RequestStep} RequestStep */

/** @type {Partial<import('./lib/types.js').LoadConfig>} */
const config = JSON.parse(process.argv[2] ?? '{}');
const {
  url,
  connections = 32,
  warmupSeconds = 2,
  durationSeconds = 10,
  token = 'bench-token',
  idMode = 'int64', // 'int64' | 'safe' (safe: every id <= 2^53-1)
  idBase = 1_000_000,
  // 'create': POST /plants, each with a new id. 'list': GET /plants?limit=20 over `preload` stored plants.
  // 'cycle': DELETE /plants/{id} then POST /plants with that id again, over `preload` stored plants.
  workload = 'create',
  preload = 0,
} = config;

// Never outlive the orchestrator, never run unbounded (preloading gets its own allowance: 8 ms a plant).
const hardLimitMs = (warmupSeconds + durationSeconds + 30) * 1000 + preload * 8;
setTimeout(() => {
  console.error(`load: hard time limit (${hardLimitMs} ms) reached, exiting`);
  process.exit(3);
}, hardLimitMs).unref();
process.on('disconnect', () => process.exit(4));

const TWO_53 = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;

let next = idBase;
let issued = 0;
let issuedAbove2p53 = 0;
/** @type {string | undefined} */
let firstBody;

function nextId() {
  const k = next++;
  issued++;
  if (idMode === 'int64') {
    const bucket = k % 8;
    if (bucket === 3) {
      issuedAbove2p53++;
      return (TWO_53 + BigInt(k)).toString(); // odd k: not representable as a double
    }
    if (bucket === 7) {
      issuedAbove2p53++;
      return (INT64_MAX - BigInt(k)).toString(); // near the int64 ceiling
    }
  }
  return String(k);
}

function nextBody() {
  const id = nextId();
  const k = next - 1;
  // A valid NewPlant; about one in five has no tag (tag is optional).
  const body = k % 5 === 0 ? `{"name":"Plant ${k}","id":${id}}` : `{"name":"Plant ${k}","tag":"aroid","id":${id}}`;
  firstBody ??= body;
  return body;
}

const headers = {
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
};

/** @type {RequestStep[]} */
const CREATE = [
  {
    method: 'POST',
    path: '/plants',
    // `req` is a fresh object per request (autocannon merges the defaults into it)
    setupRequest: (req) => {
      req.body = nextBody();
      return req;
    },
  },
];

/** @type {RequestStep[]} */
const LIST = [{ method: 'GET', path: '/plants?limit=20' }];

// The cycle's ids: the preloaded ones, each taken by one connection for its DELETE and given back once
// its re-create is answered, so no two connections ever hold the same id.
const free = Array.from({ length: preload }, (_, i) => String(idBase + i));
/** @type {RequestStep[]} */
const CYCLE = [
  {
    method: 'DELETE',
    setupRequest: (req, context) => {
      context.id = free.shift();
      req.path = `/plants/${context.id}`;
      return req;
    },
  },
  {
    method: 'POST',
    path: '/plants',
    setupRequest: (req, context) => {
      req.body = `{"name":"Plant ${context.id}","tag":"aroid","id":${context.id}}`;
      return req;
    },
    onResponse: (status, body, context) => {
      free.push(/** @type {string} */ (context.id)); // taken by the DELETE: never more connections than ids
    },
  },
];

/** Stores `preload` plants (ids idBase, idBase + 1, …) before the warm-up, 32 requests at a time. */
async function preloadPlants() {
  let next = 0;
  const one = async () => {
    while (next < preload) {
      const id = idBase + next++;
      const response = await fetch(`${url}/plants`, {
        method: 'POST',
        headers,
        body: `{"name":"Plant ${id}","tag":"aroid","id":${id}}`,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`load: preloading plant ${id} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, one));
}

/** @param {number} durationSeconds @returns {Promise<import('autocannon').Result>} */
function run(durationSeconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: /** @type {string} */ (url), // checked before the first run
        connections,
        pipelining: 1,
        duration: durationSeconds,
        timeout: 10,
        method: 'POST',
        headers,
        requests: workload === 'list' ? LIST : workload === 'cycle' ? CYCLE : CREATE,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    // No progress bar / table: results go back to the orchestrator.
    instance.on('error', reject);
  });
}

/** @param {import('autocannon').Result} r @returns {import('./lib/types.js').LoadSummary} */
function summarize(r) {
  return {
    durationSeconds: r.duration,
    samples: r.samples,
    requests: {
      mean: r.requests.mean,
      median: r.requests.p50,
      stddev: r.requests.stddev,
      min: r.requests.min,
      max: r.requests.max,
      total: r.requests.total,
      sent: r.requests.sent,
    },
    latencyMs: {
      mean: r.latency.mean,
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
    },
    responses2xx: r['2xx'],
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
    errors: r.errors,
    timeouts: r.timeouts,
    resets: r.resets,
  };
}

try {
  if (!url) throw new Error('load: no url in config');
  if (workload !== 'create' && preload > 0) await preloadPlants();
  let warmup = null;
  if (warmupSeconds > 0) warmup = summarize(await run(warmupSeconds));
  process.send?.({ type: 'measuring' });
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const summary = summarize(await run(durationSeconds));
  const cpu = process.cpuUsage(cpu0);
  // CPU of the load generator while measuring (100 = one core): near 100 means
  // the generator, not the server, may be the limit.
  const measure = { ...summary, loadGeneratorCpuPercent: ((cpu.user + cpu.system) / 1e3 / (Number(process.hrtime.bigint() - t0) / 1e6)) * 100 };
  /** @type {import('./lib/types.js').LoadMessage} */
  const message = {
    type: 'result',
    warmup,
    measure,
    ids: workload === 'create' ? { mode: idMode, base: idBase, issued, issuedAbove2p53, last: next - 1, firstBody } : undefined,
  };
  if (process.send) process.send(message, () => process.exit(0));
  else {
    console.log(JSON.stringify(message, null, 2));
    process.exit(0);
  }
} catch (err) {
  const message = { type: 'error', message: String(/** @type {Error | undefined} */ (err)?.stack ?? err) };
  if (process.send) process.send(message, () => process.exit(1));
  else {
    console.error(message.message);
    process.exit(1);
  }
}
