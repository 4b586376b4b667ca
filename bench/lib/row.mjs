// @ts-check
// One row of the bench: start a target's server, wait until it answers, drive load at it from bench/load.mjs, read its
// CPU and RSS, stop it.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST, TOKEN } from '../targets.mjs';
import { freePort, killHard, post, stop, tailBuffer, track, waitUntilAnswering } from './children.mjs';
import { ROOT } from './config.mjs';
import { CLK_TCK, DISTURBED_OTHER_CPU, childPids, procStatus, settle, systemBusyTicks, treeCpuTicks } from './cpu.mjs';
import { fmt, indent, log } from './format.mjs';

/** @typedef {import('./types.js').RowConfig} RowConfig */
/** @typedef {import('./types.js').Row} Row */
/** @typedef {import('../targets.mjs').Target} Target */

/**
 * Runs bench/load.mjs against the server on `port`; calls onMeasuring when its warm-up is over.
 * @param {RowConfig} config @param {number} port @param {Target} target @param {() => void} onMeasuring
 * @returns {Promise<import('./types.js').LoadResult>}
 */
function runLoad(config, port, target, onMeasuring) {
  /** @type {import('./types.js').LoadConfig} */
  const loadConfig = {
    url: `http://${HOST}:${port}`,
    connections: config.connections,
    warmupSeconds: config.warmupSeconds,
    durationSeconds: config.durationSeconds,
    token: TOKEN,
    idMode: target.idMode ?? 'int64',
    idBase: 1_000_000,
    workload: target.workload ?? 'create',
    preload: target.preload ?? 0,
  };
  const child = track(
    fork(path.join(ROOT, 'bench', 'load.mjs'), [JSON.stringify(loadConfig)], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    }),
  );
  const stderr = tailBuffer();
  /** @type {import('node:stream').Readable} */ (child.stderr).on('data', (c) => stderr.push(c));
  const limitMs = (config.warmupSeconds + config.durationSeconds + 40) * 1000 + (target.preload ?? 0) * 8;
  return new Promise((resolve, reject) => {
    let settled = false;
    /** @template T @param {(value: T) => void} fn @param {T} value */
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
    child.on('message', (/** @type {import('./types.js').LoadMessage | undefined} */ msg) => {
      if (msg?.type === 'measuring') onMeasuring();
      else if (msg?.type === 'result') finish(resolve, msg);
      else if (msg?.type === 'error') finish(reject, new Error(`load generator: ${msg.message}`));
    });
    child.exited.then(({ code, signal }) => finish(reject, new Error(`load generator exited (code ${code}, signal ${signal}) ${stderr.text}`)));
  });
}

/**
 * Measures one target; the row says ok, skipped or failed (with the reason and the server's last output).
 * @param {RowConfig} config @param {Target} target @returns {Promise<Row>}
 */
export async function benchTarget(config, target) {
  /** @type {import('./types.js').RowHead} */
  const row = { id: target.id, label: target.label, role: target.role ?? null, optional: !!target.optional };
  if (target.compareTo) Object.assign(row, { compareTo: target.compareTo, bar: target.bar ?? null });
  const missing = (target.requires ?? []).filter((f) => !existsSync(path.resolve(ROOT, f)));
  if (missing.length) {
    const reason = `${missing.join(', ')} not found` + (missing.some((f) => f.includes('dist/')) ? ' (not built yet: npm run build)' : '');
    log(`[${target.id}] skipped: ${reason}\n`);
    return { ...row, status: 'skipped', reason };
  }

  if (config.settleSeconds > 0) {
    row.settleWaitMs = await settle(config.settleSeconds);
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
  /** @type {import('node:stream').Readable} */ (child.stderr).on('data', (c) => output.push(c));
  /** @type {Promise<Error>} */
  const spawnError = new Promise((resolve) => child.once('error', resolve));

  /** @type {Row} */
  let measured;
  try {
    const ready = await Promise.race([waitUntilAnswering(child, port, target.startTimeoutMs ?? 15000), spawnError.then((e) => Promise.reject(e))]);
    row.readyMs = ready.readyMs;
    row.probe = { status: ready.status, body: ready.body };
    log(`[${target.id}] answering after ${(ready.readyMs / 1000).toFixed(1)} s (probe: ${ready.status})`);
    if (ready.status < 200 || ready.status > 299) log(` — probe body: ${ready.body}`);
    log(`\n[${target.id}] warm-up ${config.warmupSeconds} s, measure ${config.durationSeconds} s, ${config.connections} connections …\n`);

    /** @type {{ server: number, system: number, t: number }} */
    let start = { server: NaN, system: NaN, t: NaN }; // set when the load child starts measuring
    const load = await runLoad(config, port, target, () => {
      start = { server: treeCpuTicks(child.pid), system: systemBusyTicks(), t: Date.now() };
    });
    const end = { server: treeCpuTicks(child.pid), system: systemBusyTicks(), t: Date.now() };
    const wallSeconds = (end.t - start.t) / 1000;
    const pct = (/** @type {number} */ ticks) => (ticks / CLK_TCK / wallSeconds) * 100;
    const mem = procStatus(child.pid);
    const subprocesses = childPids(child.pid);

    const serverCpuPercent = pct(end.server - start.server);
    // loadGeneratorCpuPercent (in load.measure): measured by the load child itself (process.cpuUsage), as it exits right after.
    // Everything else the machine did meanwhile (other processes, steal), in % of one core:
    const otherCpuPercent = Math.max(0, pct(end.system - start.system - (end.server - start.server)) - load.measure.loadGeneratorCpuPercent);
    /** @type {import('./types.js').OkRow} */
    const ok = {
      ...row,
      ...load.measure,
      status: 'ok',
      warmup: load.warmup && { requests: load.warmup.requests.total, non2xx: load.warmup.non2xx, statusCodes: load.warmup.statusCodes },
      ids: load.ids,
      serverCpuPercent,
      otherCpuPercent,
      disturbed: otherCpuPercent > DISTURBED_OTHER_CPU,
      peakRssMB: mem.vmHWMkB / 1024,
      endRssMB: mem.vmRSSkB / 1024,
    };
    if (subprocesses.length) ok.serverSubprocesses = subprocesses.length;
    measured = ok;

    // A stateful store must refuse an id it has already stored.
    if (target.stateful && load.ids?.firstBody) {
      try {
        const again = await post(port, load.ids.firstBody);
        ok.repeatedIdProbe = { body: load.ids.firstBody, status: again.status };
      } catch (err) {
        ok.repeatedIdProbe = { body: load.ids.firstBody, error: /** @type {Error} */ (err).message };
      }
    }
    log(`[${target.id}] ${fmt(ok.requests.mean, 0)} req/s, non-2xx ${ok.non2xx}, errors ${ok.errors}\n`);
  } catch (err) {
    const reason = /** @type {Error} */ (err).message;
    measured = { ...row, status: 'failed', reason, serverOutput: output.text.slice(-1500) };
    log(`[${target.id}] FAILED: ${reason}\n${measured.serverOutput ? indent(measured.serverOutput) + '\n' : ''}`);
  } finally {
    await stop(child);
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  }
  return measured;
}
