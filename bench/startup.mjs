// @ts-check
// Start-up: spawn → "listening" line → first answer to POST /plants, for plantstore and for a bare
// node:http floor started the same way, alternating so both see the same machine load.
// `plantstore --version` and `verify --help` (spawn → exit) are timed too, against `node -e 0`: a command
// must load only what it needs.
//
//   node bench/startup.mjs [--rounds 15] [--cli dist/src/cli/main.js] [--base other/dist/src/cli/main.js] [--uncached]
//   --base: also time another build, in the same alternation (before/after a change).
//   --uncached: also time plantstore with PLANTSTORE_CACHE_DIR=off (what a start costs without the operations cache).
// plantstore's operations cache is used as it is; a cold one only slows the first round.
//
// Exported as benchStartup() for bench/run.mjs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postPlant } from './lib/post-plant.mjs';
import { parseArgs } from 'node:util';
import { whenListening } from './lib/listening.mjs';
import { CLK_TCK, cpuTicks, DISTURBED_OTHER_CPU, systemBusyTicks } from './lib/cpu.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const LIMIT_MS = 20_000;

/**
 * Spawns `args`, resolves the ms from spawn to the "listening on http://host:port" line and to the
 * first answered POST /plants (sent as soon as that line appears), then stops the process.
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * cpuMs: the CPU the process used until then (user + system, /proc): less swayed by other load than the wall clock.
 * @returns {Promise<{ listeningMs: number, answerMs: number, cpuMs: number, status: number }>}
 */
function timeServer(args, env = {}) {
  return whenListening(
    args,
    async (port, sinceSpawn, pid) => {
      const listeningMs = sinceSpawn();
      const status = await post(port);
      return { listeningMs, answerMs: sinceSpawn(), cpuMs: (cpuTicks(pid) * 1000) / CLK_TCK, status };
    },
    { env, limitMs: LIMIT_MS },
  );
}

/** @param {string[]} args @returns {Promise<number>} ms from spawn to a clean exit */
function timeExit(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

/** @param {number} port @returns {Promise<number>} */
async function post(port) {
  return (await postPlant(HOST, port, '{"name":"probe","tag":"probe","id":1}')).status;
}

/** @param {number[]} values @param {number} q */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

/**
 * @param {{ rounds?: number, cli?: string, base?: string, uncached?: boolean, log?: (line: string) => void }} [options]
 */
export async function benchStartup({ rounds = 7, cli = 'dist/src/cli/main.js', base, uncached = false, log = () => {} } = {}) {
  const serve = (/** @type {string} */ main) => [main, 'serve', '--port', '0', '--host', HOST];
  /** @type {{ id: string, label: string, kind: 'server' | 'exit', args: string[], env?: Record<string, string> }[]} */
  const rows = [
    { id: 'floor', label: 'floor (bare node:http)', kind: 'server', args: ['bench/floor-server.mjs', '--port', '0', '--host', HOST] },
    { id: 'plantstore', label: 'plantstore serve', kind: 'server', args: serve(cli) },
    ...(uncached
      ? [{ id: 'uncached', label: 'plantstore serve, no cache', kind: /** @type {const} */ ('server'), args: serve(cli), env: { PLANTSTORE_CACHE_DIR: 'off' } }]
      : []),
    ...(base ? [{ id: 'base', label: `plantstore serve (${base})`, kind: /** @type {const} */ ('server'), args: serve(base) }] : []),
    { id: 'node', label: 'node -e 0 (floor of a command)', kind: 'exit', args: ['-e', '0'] },
    { id: 'version', label: 'plantstore --version', kind: 'exit', args: [cli, '--version'] },
    ...(base ? [{ id: 'base-version', label: `--version (${base})`, kind: /** @type {const} */ ('exit'), args: [base, '--version'] }] : []),
    { id: 'verify-help', label: 'plantstore verify --help', kind: 'exit', args: [cli, 'verify', '--help'] },
    ...(base ? [{ id: 'base-verify-help', label: `verify --help (${base})`, kind: /** @type {const} */ ('exit'), args: [base, 'verify', '--help'] }] : []),
  ];
  /** @type {Map<string, { listening: number[], answer: number[], cpu: number[] }>} */
  const samples = new Map(rows.map((row) => [row.id, { listening: [], answer: [], cpu: [] }]));
  // Alternate, one of each per round, so machine load falls on every row alike.
  let disturbedRounds = 0;
  for (let round = 0; round < rounds; round++) {
    // The rest of the machine's load just before the round (a starting node itself uses more than one core).
    const busy0 = systemBusyTicks();
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (((systemBusyTicks() - busy0) / CLK_TCK / 0.3) * 100 > DISTURBED_OTHER_CPU) disturbedRounds++;
    for (const row of rows) {
      const sample = /** @type {{ listening: number[], answer: number[], cpu: number[] }} */ (samples.get(row.id));
      if (row.kind === 'exit') {
        sample.answer.push(await timeExit(row.args));
        continue;
      }
      const timed = await timeServer(row.args, row.env);
      if (timed.status < 200 || timed.status > 299) throw new Error(`${row.label}: POST /plants answered ${timed.status}`);
      sample.listening.push(timed.listeningMs);
      sample.answer.push(timed.answerMs);
      sample.cpu.push(timed.cpuMs);
    }
    log(`[startup] round ${round + 1}/${rounds}\n`);
  }
  const floor = /** @type {{ listening: number[], answer: number[], cpu: number[] }} */ (samples.get('floor'));
  const floorAnswer = quantile(floor.answer, 0.5);
  const floorCpu = quantile(floor.cpu, 0.5);
  // A command that exits is judged against the cheapest command node runs.
  const nodeExit = quantile(/** @type {{ answer: number[] }} */ (samples.get('node')).answer, 0.5);
  return {
    rounds,
    // Most rounds began while something else used more than a quarter of a core.
    disturbed: disturbedRounds * 2 > rounds,
    rows: rows.map((row) => {
      const { listening, answer, cpu } = /** @type {{ listening: number[], answer: number[], cpu: number[] }} */ (samples.get(row.id));
      return {
        id: row.id,
        label: row.label,
        command: [...Object.entries(row.env ?? {}).map(([name, value]) => `${name}=${value}`), 'node', ...row.args].join(' '),
        listeningMedianMs: listening.length ? quantile(listening, 0.5) : null,
        medianMs: quantile(answer, 0.5),
        p90Ms: quantile(answer, 0.9),
        overFloor: quantile(answer, 0.5) / (row.kind === 'server' ? floorAnswer : nodeExit),
        cpuMedianMs: cpu.length ? quantile(cpu, 0.5) : null,
        cpuOverFloor: cpu.length ? quantile(cpu, 0.5) / floorCpu : null,
        samplesMs: answer.map(Math.round),
      };
    }),
  };
}

/** @param {Awaited<ReturnType<typeof benchStartup>>} result */
export function startupTable(result) {
  const ms = (/** @type {number | null} */ n) => (n === null ? '-' : `${Math.round(n)} ms`);
  const times = (/** @type {number | null} */ n) => (n === null ? '-' : `${n.toFixed(1)}×`);
  const head = ['start-up', 'to listening (median)', 'to first answer (median)', 'p90', '× floor', 'CPU to answer', 'CPU × floor'];
  const body = result.rows.map((r) => [
    r.label,
    ms(r.listeningMedianMs),
    ms(r.medianMs),
    ms(r.p90Ms),
    times(r.overFloor),
    ms(r.cpuMedianMs),
    times(r.cpuOverFloor),
  ]);
  // Every row has a cell under each head.
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => /** @type {string} */ (b[i]).length)));
  const width = (/** @type {number} */ i) => /** @type {number} */ (widths[i]);
  const line = (/** @type {string[]} */ cells) => cells.map((c, i) => (i === 0 ? c.padEnd(width(i)) : c.padStart(width(i)))).join('  ');
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...body.map(line),
    ...(result.disturbed ? ['* disturbed: most rounds began while the rest of the machine was busy; re-run on a quiet machine.'] : []),
    `${result.rounds} alternating rounds; spawn → "listening on" line → POST /plants answered (× the bare node:http floor), and the server's CPU until that answer (user + system, 10 ms steps); a command: spawn → exit (× node -e 0).`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, cli: { type: 'string' }, base: { type: 'string' }, uncached: { type: 'boolean' } } });
  const result = await benchStartup({
    rounds: values.rounds === undefined ? 15 : Number(values.rounds),
    ...(values.cli ? { cli: values.cli } : {}),
    ...(values.base ? { base: values.base } : {}),
    uncached: values.uncached ?? false,
    log: (line) => process.stderr.write(line),
  });
  console.log(startupTable(result));
  for (const row of result.rows) console.log(`  ${row.id}: ${row.samplesMs.join(' ')}`);
}
