// @ts-check
// `npm run bench`: POST /plants throughput of plantstore vs the prism mock vs a
// bare node:http floor, back to back in one run. A benchmark, not a test.
//
// Each server runs in its own child process; the load generator (autocannon,
// bench/load.mjs) runs in another. Per server: start on a free loopback port,
// wait until it answers, warm up, measure, read its peak RSS, stop it.
//
//   node bench/run.mjs [--duration 10] [--warmup 2] [--connections 32]
//                      [--only floor,plantstore] [--strict] [--settle 2] [--max-seconds N]
//                      [--startup-rounds 7]
//   env: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ONLY, BENCH_STRICT=1, BENCH_SETTLE, BENCH_MAX_SECONDS,
//        BENCH_STARTUP_ROUNDS
// --startup-rounds: start-up times first (bench/startup.mjs), this many alternating rounds (0: skip).
// --settle: before each row wait up to N s for other processes to quiet down (0: don't).
//
// Exit codes: 0 ok (bars may be unmet unless --strict), 1 a row had > 1 % non-2xx
// or errors, a required row failed to start, or (--strict) a bar was not met;
// 2 the whole-run time limit was hit; 130 interrupted.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchStartup, startupTable } from './startup.mjs';
import { HOST, PLANTSTORE_CLI, TOKEN, targets as allTargets } from './targets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results', 'latest.json');
const BARS = { overPrism: 8, overFloor: 0.6 };
const MAX_BAD_FRACTION = 0.01;
const CLK_TCK = 100; // Linux USER_HZ
const DISTURBED_OTHER_CPU = 25; // % of one core used by the rest of the machine while measuring

// ---------------------------------------------------------------- config

const { values: argv } = parseArgs({
  options: {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    only: { type: 'string' },
    strict: { type: 'boolean' },
    'max-seconds': { type: 'string' },
    settle: { type: 'string' },
    'startup-rounds': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (argv.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\nimport ')[0]
      .replace(/^\/\/ ?/gm, ''),
  );
  process.exit(0);
}

function num(flag, env, dflt, min) {
  const raw = argv[flag] ?? process.env[env];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    console.error(`bench: --${flag} / ${env} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
    process.exit(1);
  }
  return n;
}

const config = {
  durationSeconds: num('duration', 'BENCH_DURATION', 10, 1),
  warmupSeconds: num('warmup', 'BENCH_WARMUP', 2, 0),
  connections: Math.round(num('connections', 'BENCH_CONNECTIONS', 32, 1)),
  only: (argv.only ?? process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  strict: argv.strict ?? process.env.BENCH_STRICT === '1',
  // Before each row, wait up to this long for the machine to be quiet (other CPU use below the "disturbed" mark).
  settleSeconds: num('settle', 'BENCH_SETTLE', 2, 0),
  startupRounds: Math.round(num('startup-rounds', 'BENCH_STARTUP_ROUNDS', 7, 0)),
};

let targets = allTargets;
if (config.only.length) {
  const unknown = config.only.filter((id) => !allTargets.some((t) => t.id === id));
  if (unknown.length) {
    console.error(`bench: unknown target(s) ${unknown.join(', ')}; known: ${allTargets.map((t) => t.id).join(', ')}`);
    process.exit(1);
  }
  targets = allTargets.filter((t) => config.only.includes(t.id));
}

// Whole-run limit: generous per row (start + warm-up + measure + stop), then give up.
config.maxSeconds = num(
  'max-seconds',
  'BENCH_MAX_SECONDS',
  targets.reduce(
    (s, t) => s + (t.startTimeoutMs ?? 15000) / 1000 + config.settleSeconds + config.warmupSeconds + config.durationSeconds + 15,
    30 + config.startupRounds * 10,
  ),
  1,
);

// ---------------------------------------------------------------- child bookkeeping

const live = new Set(); // ChildProcess objects still running

function killHard(child) {
  try {
    if (child.spawnargs && child.detachedGroup) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    /* already gone */
  }
}

process.on('exit', () => {
  for (const child of live) killHard(child);
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.error(`\nbench: ${sig}, stopping children`);
    for (const child of live) killHard(child);
    process.exit(130);
  });
}
setTimeout(() => {
  console.error(`\nbench: whole-run time limit of ${config.maxSeconds} s reached, stopping children`);
  for (const child of live) killHard(child);
  process.exit(2);
}, config.maxSeconds * 1000).unref();

function track(child) {
  live.add(child);
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      child.exitInfo = { code, signal };
      resolve(child.exitInfo);
    });
  });
  return child;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(msg);

// ---------------------------------------------------------------- helpers

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** One POST /plants; resolves {status, body} or rejects on connection error / 2 s timeout. */
function post(port, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/plants',
        agent: false,
        timeout: 2000,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: text.slice(0, 300) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

let probeId = 0; // probe ids 1, 2, 3 … stay far below the load ids (>= 1e6)
async function waitUntilAnswering(child, port, timeoutMs) {
  const t0 = Date.now();
  let lastError = '';
  while (Date.now() - t0 < timeoutMs) {
    if (child.exitInfo) throw new Error(`exited before answering (code ${child.exitInfo.code}, signal ${child.exitInfo.signal})`);
    try {
      probeId++;
      const res = await post(port, `{"name":"probe","tag":"probe","id":${probeId}}`);
      return { ...res, readyMs: Date.now() - t0 };
    } catch (err) {
      lastError = err.message;
    }
    await sleep(100);
  }
  throw new Error(`no answer within ${timeoutMs} ms (last: ${lastError})`);
}

function procStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { vmHWMkB: kb('VmHWM'), vmRSSkB: kb('VmRSS') };
  } catch {
    return { vmHWMkB: NaN, vmRSSkB: NaN };
  }
}

function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return NaN;
  }
}

/** All CPUs' busy ticks (user nice system irq softirq steal) from /proc/stat. */
function systemBusyTicks() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = f;
    return user + nice + system + irq + softirq + (steal || 0);
  } catch {
    return NaN;
  }
}

/** Waits (at most config.settleSeconds) until a 0.5 s window shows the machine nearly idle; returns ms waited or -1 if it never was. */
async function settle() {
  const t0 = Date.now();
  while (true) {
    const a = systemBusyTicks();
    await sleep(500);
    const busyPercent = ((systemBusyTicks() - a) / CLK_TCK / 0.5) * 100;
    if (!(busyPercent > DISTURBED_OTHER_CPU)) return Math.max(0, Date.now() - t0 - 500);
    if (Date.now() - t0 >= config.settleSeconds * 1000) return -1;
  }
}

function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

async function stop(child) {
  if (child.exitInfo) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
  const done = await Promise.race([child.exited, sleep(3000).then(() => null)]);
  if (!done) {
    killHard(child);
    await Promise.race([child.exited, sleep(2000)]);
  }
}

function tailBuffer(max = 4000) {
  let text = '';
  return {
    push(chunk) {
      text = (text + chunk.toString('utf8')).slice(-max);
    },
    get text() {
      return text.trim();
    },
  };
}

function runLoad(port, target, onMeasuring) {
  const loadConfig = {
    url: `http://${HOST}:${port}`,
    connections: config.connections,
    warmupSeconds: config.warmupSeconds,
    durationSeconds: config.durationSeconds,
    token: TOKEN,
    idMode: target.idMode ?? 'int64',
    idBase: 1_000_000,
  };
  const child = track(
    fork(path.join(ROOT, 'bench', 'load.mjs'), [JSON.stringify(loadConfig)], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    }),
  );
  const stderr = tailBuffer();
  child.stderr.on('data', (c) => stderr.push(c));
  const limitMs = (config.warmupSeconds + config.durationSeconds + 40) * 1000;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const timer = setTimeout(() => {
      killHard(child);
      finish(reject, new Error(`load generator exceeded ${limitMs} ms`));
    }, limitMs);
    child.on('message', (msg) => {
      if (msg?.type === 'measuring') onMeasuring();
      else if (msg?.type === 'result') finish(resolve, msg);
      else if (msg?.type === 'error') finish(reject, new Error(`load generator: ${msg.message}`));
    });
    child.exited.then(({ code, signal }) => finish(reject, new Error(`load generator exited (code ${code}, signal ${signal}) ${stderr.text}`)));
  });
}

// ---------------------------------------------------------------- one row

async function benchTarget(target) {
  const row = { id: target.id, label: target.label, role: target.role ?? null, optional: !!target.optional };
  const missing = (target.requires ?? []).filter((f) => !existsSync(path.resolve(ROOT, f)));
  if (missing.length) {
    row.status = 'skipped';
    row.reason = `${missing.join(', ')} not found` + (missing.some((f) => f.includes('dist/')) ? ' (not built yet: npm run build)' : '');
    log(`[${target.id}] skipped: ${row.reason}\n`);
    return row;
  }

  if (config.settleSeconds > 0) {
    row.settleWaitMs = await settle();
    if (row.settleWaitMs < 0) log(`[${target.id}] the machine stayed busy for ${config.settleSeconds} s (other processes); measuring anyway\n`);
    else if (row.settleWaitMs > 50) log(`[${target.id}] waited ${(row.settleWaitMs / 1000).toFixed(1)} s for the machine to be quiet\n`);
  }
  const port = await freePort();
  const tmpDir = target.tmpDir ? mkdtempSync(path.join(os.tmpdir(), `plantstore-bench-${target.id}-`)) : undefined;
  const [file, args] = target.command({ port, host: HOST, token: TOKEN, tmpDir });
  row.command = [file === process.execPath ? 'node' : file, ...args].join(' ');
  log(`[${target.id}] ${row.command}\n`);

  const output = tailBuffer();
  const child = track(
    spawn(file, args, {
      cwd: ROOT,
      detached: true, // own process group: stop() signals the server and anything it starts
      stdio: ['ignore', target.stdout === 'ignore' ? 'ignore' : 'pipe', 'pipe'],
      env: { ...process.env, ...target.env },
    }),
  );
  child.detachedGroup = true;
  child.stdout?.on('data', (c) => output.push(c));
  child.stderr.on('data', (c) => output.push(c));
  const spawnError = new Promise((resolve) => child.once('error', resolve));

  try {
    const ready = await Promise.race([waitUntilAnswering(child, port, target.startTimeoutMs ?? 15000), spawnError.then((e) => Promise.reject(e))]);
    row.readyMs = ready.readyMs;
    row.probe = { status: ready.status, body: ready.body };
    log(`[${target.id}] answering after ${(ready.readyMs / 1000).toFixed(1)} s (probe: ${ready.status})`);
    if (ready.status < 200 || ready.status > 299) log(` — probe body: ${ready.body}`);
    log(`\n[${target.id}] warm-up ${config.warmupSeconds} s, measure ${config.durationSeconds} s, ${config.connections} connections …\n`);

    /** @type {{ server: number, system: number, t: number }} */
    let start = { server: NaN, system: NaN, t: NaN }; // set when the load child starts measuring
    const load = await runLoad(port, target, () => {
      start = { server: cpuTicks(child.pid), system: systemBusyTicks(), t: Date.now() };
    });
    const end = { server: cpuTicks(child.pid), system: systemBusyTicks(), t: Date.now() };
    const wallSeconds = (end.t - start.t) / 1000;
    const pct = (ticks) => (ticks / CLK_TCK / wallSeconds) * 100;
    const mem = procStatus(child.pid);
    const subprocesses = childPids(child.pid);

    Object.assign(row, load.measure);
    row.status = 'ok';
    row.warmup = load.warmup && { requests: load.warmup.requests.total, non2xx: load.warmup.non2xx, statusCodes: load.warmup.statusCodes };
    row.ids = load.ids;
    row.serverCpuPercent = pct(end.server - start.server);
    // row.loadGeneratorCpuPercent: measured by the load child itself (process.cpuUsage), as it exits right after.
    // Everything else the machine did meanwhile (other processes, steal), in % of one core:
    row.otherCpuPercent = Math.max(0, pct(end.system - start.system - (end.server - start.server)) - row.loadGeneratorCpuPercent);
    row.disturbed = row.otherCpuPercent > DISTURBED_OTHER_CPU;
    row.peakRssMB = mem.vmHWMkB / 1024;
    row.endRssMB = mem.vmRSSkB / 1024;
    if (subprocesses.length) row.serverSubprocesses = subprocesses.length;

    // A stateful store must refuse an id it has already stored.
    if (target.stateful && load.ids.firstBody) {
      try {
        const again = await post(port, load.ids.firstBody);
        row.repeatedIdProbe = { body: load.ids.firstBody, status: again.status };
      } catch (err) {
        row.repeatedIdProbe = { body: load.ids.firstBody, error: err.message };
      }
    }
    log(`[${target.id}] ${fmt(row.requests.mean, 0)} req/s, non-2xx ${row.non2xx}, errors ${row.errors}\n`);
  } catch (err) {
    row.status = 'failed';
    row.reason = err.message;
    row.serverOutput = output.text.slice(-1500);
    log(`[${target.id}] FAILED: ${err.message}\n${row.serverOutput ? indent(row.serverOutput) + '\n' : ''}`);
  } finally {
    await stop(child);
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  }
  return row;
}

// ---------------------------------------------------------------- report

function fmt(n, digits = 1) {
  if (n === undefined || n === null || Number.isNaN(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
const indent = (s) =>
  s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');

function table(rows) {
  const head = ['server', 'req/s mean', 'req/s median', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors', 'server CPU', 'client CPU', 'other CPU', 'peak RSS'];
  const body = rows.map((r) =>
    r.status === 'ok'
      ? [
          r.label + (r.disturbed ? ' *' : ''),
          fmt(r.requests.mean, 0),
          fmt(r.requests.median, 0),
          fmt(r.latencyMs.p50, 0),
          fmt(r.latencyMs.p99, 0),
          String(r.responses2xx),
          String(r.non2xx),
          String(r.errors),
          `${fmt(r.serverCpuPercent, 0)} %`,
          `${fmt(r.loadGeneratorCpuPercent, 0)} %`,
          `${fmt(r.otherCpuPercent, 0)} %`,
          `${fmt(r.peakRssMB, 0)} MB`,
        ]
      : [r.label, `${r.status.toUpperCase()}: ${r.reason}`],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.filter((b) => b.length > 2).map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const b of body) out.push(b.length > 2 ? line(b) : `${b[0].padEnd(widths[0])}  ${b[1]}`);
  return out.join('\n');
}

function badFractions(r) {
  const answered = r.responses2xx + r.non2xx;
  return {
    non2xx: answered ? r.non2xx / answered : 1,
    errors: r.errors / Math.max(1, answered + r.errors),
  };
}

// ---------------------------------------------------------------- main

const t0 = Date.now();
const gitCommit = (() => {
  try {
    const head = readFileSync(path.join(ROOT, '.git', 'HEAD'), 'utf8').trim();
    return head.startsWith('ref: ') ? readFileSync(path.join(ROOT, '.git', head.slice(5)), 'utf8').trim() : head;
  } catch {
    return null;
  }
})();
log(
  `bench: ${targets.length} target(s), warm-up ${config.warmupSeconds} s + measure ${config.durationSeconds} s each, ` +
    `${config.connections} connections, Node ${process.version}, ${os.cpus().length} CPUs, loopback ${HOST}\n`,
);

// Start-up first, while no server of ours is running.
let startup = null;
if (config.startupRounds > 0) {
  if (existsSync(path.resolve(ROOT, PLANTSTORE_CLI))) startup = await benchStartup({ rounds: config.startupRounds, cli: PLANTSTORE_CLI, log });
  else log(`[startup] skipped: ${PLANTSTORE_CLI} not found (not built yet: npm run build)\n`);
}

const rows = [];
for (const target of targets) rows.push(await benchTarget(target));

const ok = (role) => rows.find((r) => r.role === role && r.status === 'ok');
const ps = ok('plantstore');
const prism = ok('prism');
const floor = ok('floor');
const ratios = {
  plantstoreOverPrism: ps && prism ? ps.requests.mean / prism.requests.mean : null,
  plantstoreOverFloor: ps && floor ? ps.requests.mean / floor.requests.mean : null,
};
const bars = {
  plantstoreOverPrism: {
    bar: BARS.overPrism,
    value: ratios.plantstoreOverPrism,
    met: ratios.plantstoreOverPrism === null ? null : ratios.plantstoreOverPrism >= BARS.overPrism,
  },
  plantstoreOverFloor: {
    bar: BARS.overFloor,
    value: ratios.plantstoreOverFloor,
    met: ratios.plantstoreOverFloor === null ? null : ratios.plantstoreOverFloor >= BARS.overFloor,
  },
};

const problems = [];
for (const r of rows) {
  if (r.status === 'failed' && !r.optional) problems.push(`${r.label}: failed to start or run: ${r.reason}`);
  if (r.status !== 'ok') continue;
  const bad = badFractions(r);
  if (bad.non2xx > MAX_BAD_FRACTION)
    problems.push(
      `${r.label}: ${r.non2xx} non-2xx of ${r.responses2xx + r.non2xx} answers (${fmt(bad.non2xx * 100, 2)} % > 1 %), status codes ${JSON.stringify(r.statusCodes)} — the numbers are not a measure of creating plants`,
    );
  if (bad.errors > MAX_BAD_FRACTION) problems.push(`${r.label}: ${r.errors} connection errors/timeouts (${fmt(bad.errors * 100, 2)} % > 1 %)`);
}

const out = [];
out.push('');
out.push(
  `POST /plants, ${config.connections} connections, ${config.durationSeconds} s measured after ${config.warmupSeconds} s warm-up, autocannon in its own process; Node ${process.version}, ${os.cpus().length} CPUs`,
);
out.push('');
out.push(table(rows));
out.push('');
out.push('req/s: mean and median of per-second samples. Latency: of 2xx answers. CPU while measuring, 100 % = one core: server = the server process,');
out.push('client = autocannon\'s process, other = the rest of the machine (other processes, steal): a high "other" means that row was disturbed.');
out.push('peak RSS: VmHWM of the server process.');
const disturbed = rows.filter((r) => r.disturbed);
if (disturbed.length)
  out.push(
    `* disturbed: something else used > ${DISTURBED_OTHER_CPU} % of a core while this row was measured; its numbers (and ratios using them) are unreliable — re-run on a quiet machine.`,
  );
for (const r of rows) {
  const notes = [];
  const t = targets.find((x) => x.id === r.id);
  if (t?.note) notes.push(t.note);
  if (r.status === 'ok' && r.ids) notes.push(`${r.ids.issued} distinct ids issued (${r.ids.issuedAbove2p53} above 2^53)`);
  if (r.probe && (r.probe.status < 200 || r.probe.status > 299)) notes.push(`first probe answered ${r.probe.status}: ${r.probe.body}`);
  if (r.warmup?.non2xx) notes.push(`warm-up had ${r.warmup.non2xx} non-2xx ${JSON.stringify(r.warmup.statusCodes)}`);
  if (r.non2xx) notes.push(`status codes ${JSON.stringify(r.statusCodes)}`);
  if (r.repeatedIdProbe)
    notes.push(
      r.repeatedIdProbe.status >= 200 && r.repeatedIdProbe.status <= 299
        ? `WARNING: a repeated id was accepted (${r.repeatedIdProbe.status}): the store does not refuse duplicates, so distinct ids were not checked`
        : r.responses2xx > r.non2xx
          ? `repeated id refused with ${r.repeatedIdProbe.status ?? r.repeatedIdProbe.error} (the store is stateful, so distinct ids mattered)`
          : `repeated id answered ${r.repeatedIdProbe.status ?? r.repeatedIdProbe.error}`,
    );
  if (r.serverSubprocesses) notes.push(`server has ${r.serverSubprocesses} subprocess(es): RSS is of the main process only`);
  if (r.status === 'failed' && r.role === 'prism') notes.push('prism-cli 5.16 declares Node >= 24; this run uses Node ' + process.version);
  if (notes.length) out.push(`  ${r.label}: ${notes.join('; ')}`);
}
out.push('');
const shaky = [ps, prism, floor].some((r) => r?.disturbed) ? ', but a row behind it was disturbed (*)' : '';
const verdict = (b) => (b.met === null ? 'not evaluated' : (b.met ? 'MET' : 'NOT MET') + shaky);
out.push(
  `plantstore / prism: ${ratios.plantstoreOverPrism === null ? '-' : fmt(ratios.plantstoreOverPrism, 1) + '×'}  (bar ≥ ${BARS.overPrism}×: ${verdict(bars.plantstoreOverPrism)})`,
);
out.push(
  `plantstore / floor: ${ratios.plantstoreOverFloor === null ? '-' : fmt(ratios.plantstoreOverFloor * 100, 0) + ' %'}  (bar ≥ ${BARS.overFloor * 100} %: ${verdict(bars.plantstoreOverFloor)})`,
);
if (floor && prism)
  out.push(
    `floor / prism:      ${fmt(floor.requests.mean / prism.requests.mean, 1)}×  (the most plantstore / prism can reach here unless plantstore outruns the floor)`,
  );
if (!ps) {
  const r = rows.find((x) => x.role === 'plantstore');
  out.push(`  bars not evaluated: the plantstore row ${r ? `${r.status === 'failed' ? 'failed' : 'was skipped'}: ${r.reason}` : 'was not selected (--only)'}`);
}
for (const r of rows) {
  if (r.status !== 'ok' || r.role || !r.id.startsWith('plantstore')) continue;
  const parts = [];
  if (ps) parts.push(`${fmt((r.requests.mean / ps.requests.mean) * 100, 0)} % of plantstore`);
  if (floor) parts.push(`${fmt((r.requests.mean / floor.requests.mean) * 100, 0)} % of floor`);
  if (prism) parts.push(`${fmt(r.requests.mean / prism.requests.mean, 1)}× prism`);
  out.push(`${r.label}: ${parts.join(', ')}`);
}
if (startup) out.push('', startupTable(startup));
const seconds = (Date.now() - t0) / 1000;
out.push('');
out.push(`bench took ${fmt(seconds, 1)} s (without the build); results in ${path.relative(ROOT, RESULTS)}`);
console.log(out.join('\n'));

const strictFail = config.strict && Object.values(bars).some((b) => b.met !== true);
if (problems.length) {
  console.error('\n' + '!'.repeat(72));
  console.error('BENCH FAILED:');
  for (const p of problems) console.error(`  - ${p}`);
  console.error('!'.repeat(72));
} else if (strictFail) {
  console.error('\nBENCH FAILED (--strict): a bar was not met or not evaluated');
}

mkdirSync(path.dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      gitCommit,
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadavgAtEnd: os.loadavg(),
      config: { ...config, host: HOST },
      rows,
      startup,
      ratios,
      bars,
      problems,
      seconds,
    },
    null,
    2,
  ) + '\n',
);

process.exit(problems.length || strictFail ? 1 : 0);
