// @ts-check
// Child processes of the bench: tracking, stopping and killing them (also on exit, SIGINT, SIGTERM, SIGHUP and the
// whole-run time limit), free loopback ports, and polling a server until it answers POST /plants.
import http from 'node:http';
import net from 'node:net';
import { HOST, TOKEN } from '../targets.mjs';

/** @typedef {import('./types.js').Answer} Answer */
/** @typedef {import('./types.js').ExitInfo} ExitInfo */
/** @typedef {import('./types.js').TrackedChild} TrackedChild */

/** @type {Set<TrackedChild>} */
const live = new Set(); // child processes still running

export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {TrackedChild} child */
export function killHard(child) {
  try {
    if (child.spawnargs && child.detachedGroup) process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    /* already gone */
  }
}

/**
 * Kills every tracked child on exit and on SIGINT/SIGTERM/SIGHUP (exit 130), and after maxSeconds (exit 2).
 * @param {number} maxSeconds
 */
export function installCleanup(maxSeconds) {
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
    console.error(`\nbench: whole-run time limit of ${maxSeconds} s reached, stopping children`);
    for (const child of live) killHard(child);
    process.exit(2);
  }, maxSeconds * 1000).unref();
}

/**
 * Tracks a child until it exits: `exited` resolves then, `exitInfo` holds its code and signal.
 * @template {import('node:child_process').ChildProcess} C
 * @param {C} spawned
 * @returns {C & import('./types.js').Tracked}
 */
export function track(spawned) {
  const child = /** @type {C & import('./types.js').Tracked} */ (spawned);
  const entry = /** @type {TrackedChild} */ (/** @type {import('node:child_process').ChildProcess} */ (spawned));
  live.add(entry);
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(entry);
      const exitInfo = { code, signal };
      child.exitInfo = exitInfo;
      resolve(exitInfo);
    });
  });
  return child;
}

/** SIGTERM to the child's process group, SIGKILL if it has not exited 3 s later. @param {TrackedChild} child */
export async function stop(child) {
  if (child.exitInfo) return;
  try {
    process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM');
  } catch {
    /* gone */
  }
  const done = await Promise.race([child.exited, sleep(3000).then(() => null)]);
  if (!done) {
    killHard(child);
    await Promise.race([child.exited, sleep(2000)]);
  }
}

/** The last `max` characters of a child's output. */
export function tailBuffer(max = 4000) {
  let text = '';
  return {
    /** @param {Buffer | string} chunk */
    push(chunk) {
      text = (text + chunk.toString('utf8')).slice(-max);
    },
    get text() {
      return text.trim();
    },
  };
}

/** @returns {Promise<number>} */
export function freePort() {
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

/**
 * One POST /plants; resolves {status, body} or rejects on connection error / 2 s timeout.
 * @param {number} port @param {string} body @returns {Promise<Answer>}
 */
export function post(port, body) {
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
        // A client's response always has its status code.
        res.on('end', () => resolve({ status: /** @type {number} */ (res.statusCode), body: text.slice(0, 300) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

let probeId = 0; // probe ids 1, 2, 3 … stay far below the load ids (>= 1e6)
/**
 * Probes POST /plants every 100 ms until the server answers; throws when it exits first or after timeoutMs.
 * @param {TrackedChild} child @param {number} port @param {number} timeoutMs
 */
export async function waitUntilAnswering(child, port, timeoutMs) {
  const t0 = Date.now();
  let lastError = '';
  while (Date.now() - t0 < timeoutMs) {
    if (child.exitInfo) throw new Error(`exited before answering (code ${child.exitInfo.code}, signal ${child.exitInfo.signal})`);
    try {
      probeId++;
      const res = await post(port, `{"name":"probe","tag":"probe","id":${probeId}}`);
      return { ...res, readyMs: Date.now() - t0 };
    } catch (err) {
      lastError = /** @type {Error} */ (err).message;
    }
    await sleep(100);
  }
  throw new Error(`no answer within ${timeoutMs} ms (last: ${lastError})`);
}
