// @ts-check
// Server CPU per request, this build against another, in alternating rounds: on a busy machine
// req/s swings with the load, the server's CPU per answered request much less.
//
//   node bench/post-rounds.mjs --base /old/checkout/dist/src/cli/main.js [--rounds 5] [--duration 4]
//     [--warmup 1] [--workload create|list|cycle] [--floor]
//
// Each round runs the floor (with --floor), this build and the base one after the other (the same
// row code as bench/run.mjs: autocannon in its own process, 32 connections), and prints per row
// req/s, server CPU % and server CPU µs per request; at the end the medians and this ÷ base.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { installCleanup } from './lib/children.mjs';
import { ROOT } from './lib/config.mjs';
import { benchTarget } from './lib/row.mjs';
import { median } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    workload: { type: 'string', default: 'create' },
    floor: { type: 'boolean', default: false },
    connections: { type: 'string', default: '32' },
  },
});
const rounds = Number(values.rounds);
const workload = /** @type {'create' | 'list' | 'cycle'} */ (values.workload);
const preload = workload === 'list' ? 10_000 : workload === 'cycle' ? 1_000 : 0;
const config = {
  durationSeconds: Number(values.duration),
  warmupSeconds: Number(values.warmup),
  connections: Number(values.connections),
  settleSeconds: 0,
};
const node = process.execPath;

/** @typedef {import('./targets.mjs').Target} Target */

/** @param {string} id @param {string} cli @returns {Target} */
const build = (id, cli) => ({
  id,
  label: id,
  stateful: workload === 'create',
  workload,
  preload,
  command: ({ port, host }) => [node, [cli, 'serve', '--port', String(port), '--host', host, '--log-level', 'silent']],
});
/** @type {Target[]} */
const rows = [];
if (values.floor)
  rows.push({
    id: 'floor',
    label: 'floor',
    workload,
    preload,
    command: ({ port, host }) => [node, ['bench/floor-server.mjs', '--port', String(port), '--host', host, ...(workload === 'create' ? [] : ['--store'])]],
  });
rows.push(build('this', path.join(ROOT, 'dist/src/cli/main.js')));
if (values.base) rows.push(build('base', path.resolve(values.base)));

installCleanup(rounds * rows.length * (config.durationSeconds + config.warmupSeconds + 30) + 60);
/** @typedef {{ rps: number[], cpu: number[], us: number[] }} Samples */
/** @type {Record<string, Samples>} */
const samples = Object.fromEntries(rows.map((r) => [r.id, { rps: [], cpu: [], us: [] }]));
/** A row's samples: every row has its entry. @param {string} id */
const samplesOf = (id) => /** @type {Samples} */ (samples[id]);
for (let round = 0; round < rounds; round += 1) {
  // Alternate the order too, so neither build always runs right after the floor.
  const order = round % 2 === 0 ? rows : [...rows].reverse();
  for (const target of order) {
    const row = await benchTarget(config, target);
    if (row.status !== 'ok') throw new Error(`${target.id}: ${row.reason}`);
    const rps = row.requests.mean;
    const us = ((row.serverCpuPercent / 100) * 1e6) / rps;
    samplesOf(target.id).rps.push(rps);
    samplesOf(target.id).cpu.push(row.serverCpuPercent);
    samplesOf(target.id).us.push(us);
    console.log(
      `round ${round + 1} ${target.id}: ${rps.toFixed(0)} req/s, server CPU ${row.serverCpuPercent.toFixed(0)} %, ${us.toFixed(1)} µs/request, other ${row.otherCpuPercent.toFixed(0)} %, non-2xx ${row.non2xx}`,
    );
  }
}
console.log(`\n${workload}, ${rounds} rounds of ${config.durationSeconds} s, medians:`);
for (const [id, s] of Object.entries(samples))
  console.log(
    `  ${id.padEnd(6)} ${median(s.rps).toFixed(0).padStart(6)} req/s  CPU ${median(s.cpu).toFixed(0)} %  ${median(s.us).toFixed(1)} µs/request  (µs: ${s.us.map((u) => u.toFixed(1)).join(' ')})`,
  );
if (values.base) {
  const ratio = (/** @type {'rps' | 'us'} */ key) => (median(samplesOf('this')[key]) / median(samplesOf('base')[key])).toFixed(3);
  console.log(`  this ÷ base: req/s ${ratio('rps')}, µs/request ${ratio('us')}`);
}
if (values.floor) {
  const ratio = (/** @type {string} */ id) => (median(samplesOf('floor').us) / median(samplesOf(id).us)).toFixed(3);
  console.log(`  floor µs ÷ build µs (the CPU-bound ratio): this ${ratio('this')}${values.base ? `, base ${ratio('base')}` : ''}`);
}
process.exit(0);
