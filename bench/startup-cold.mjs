// @ts-check
// Start-up on a cold cache: `serve` of the bundled document with an empty cache folder at every
// spawn (what a CI run sees first), and with PLANTSTORE_CACHE_DIR=off, for this build and another,
// in alternating rounds; spawn → first POST /plants answered, and the CPU until then (/proc).
// The validator cache (core/prism/validator-cache.ts) must not make a cold start slower.
//
//   node bench/startup-cold.mjs --base /old/checkout/dist/src/cli/main.js [--rounds 7] [--cli dist/src/cli/main.js]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLK_TCK, cpuTicks } from './lib/cpu.mjs';
import { whenListening } from './lib/listening.mjs';
import { postPlant } from './lib/post-plant.mjs';
import { median } from './lib/stats.mjs';

const HOST = '127.0.0.1';
const { values } = parseArgs({ options: { rounds: { type: 'string' }, cli: { type: 'string' }, base: { type: 'string' } } });
const rounds = Number(values.rounds ?? 7);
const builds = [{ id: 'this', main: values.cli ?? 'dist/src/cli/main.js' }, ...(values.base ? [{ id: 'base', main: values.base }] : [])];
const work = await mkdtemp(join(tmpdir(), 'startup-cold-'));
/** @type {Map<string, { answer: number[], cpu: number[] }>} */
const samples = new Map();

/** @param {string} main @param {string} cache */
async function timed(main, cache) {
  return whenListening(
    [main, 'serve', '--port', '0', '--host', HOST],
    async (port, sinceSpawn, pid) => {
      const { status } = await postPlant(HOST, port, '{"name":"probe","tag":"probe","id":1}');
      if (status !== 200) throw new Error(`${main}: POST /plants answered ${status}`);
      return { answer: sinceSpawn(), cpu: (cpuTicks(pid) * 1000) / CLK_TCK };
    },
    { env: { PLANTSTORE_CACHE_DIR: cache }, limitMs: 20_000 },
  );
}

try {
  for (let round = 0; round < rounds; round++) {
    for (const build of builds) {
      for (const mode of ['empty', 'off']) {
        const cache = mode === 'off' ? 'off' : await mkdtemp(join(work, 'cache-'));
        const { answer, cpu } = await timed(build.main, cache);
        const key = `${build.id} ${mode}`;
        const sample = samples.get(key) ?? { answer: [], cpu: [] };
        sample.answer.push(answer);
        sample.cpu.push(cpu);
        samples.set(key, sample);
      }
    }
    process.stderr.write(`[startup-cold] round ${round + 1}/${rounds}\n`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(`${rounds} alternating rounds, serve of the bundled document, a cold cache at every spawn (empty folder, or PLANTSTORE_CACHE_DIR=off)`);
for (const [key, { answer, cpu }] of samples) {
  console.log(`${key.padEnd(12)} first answer ${Math.round(median(answer))} ms, CPU ${Math.round(median(cpu))} ms   (${answer.map(Math.round).join(' ')})`);
}
for (const mode of ['empty', 'off']) {
  const mine = samples.get(`this ${mode}`);
  const base = samples.get(`base ${mode}`);
  if (mine && base)
    console.log(
      `${mode}: this ÷ base = ${(median(mine.answer) / median(base.answer)).toFixed(2)} (wall), ${(median(mine.cpu) / median(base.cpu)).toFixed(2)} (CPU)`,
    );
}
