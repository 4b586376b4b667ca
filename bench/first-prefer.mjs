// @ts-check
// The first Prefer request of a fresh `plantstore serve`: how long it waits (issue 11 measured 1.35 s,
// the mocker loading faker and json-schema-faker on it). Each round starts each build fresh, sends
// `POST /plants` with `Prefer: code=400, example=duplicateId` as soon as it listens, then a second
// one, and stops it; builds alternate, so machine load falls on both alike. Medians are printed.
//
//   node bench/first-prefer.mjs [--rounds 9] [--cli dist/src/cli/main.js] [--base other/dist/src/cli/main.js] [--prefer 'dynamic=true']
import { parseArgs } from 'node:util';
import { whenListening } from './lib/listening.mjs';
import { postPlant } from './lib/post-plant.mjs';
import { median } from './lib/stats.mjs';

const HOST = '127.0.0.1';
const LIMIT_MS = 30_000;

/** @param {number} port @param {string} prefer */
function preferRequest(port, prefer) {
  return postPlant(HOST, port, '{"name":"probe","id":1}', { prefer });
}

/** Starts `cli` serve, times the first and a second Prefer request, stops it. @param {string} cli @param {string} prefer */
function timeFirstPrefer(cli, prefer) {
  return whenListening(
    [cli, 'serve', '--port', '0', '--host', HOST],
    async (port) => {
      const first = await preferRequest(port, prefer);
      const second = await preferRequest(port, prefer);
      return { first, second };
    },
    { limitMs: LIMIT_MS },
  );
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    cli: { type: 'string', default: 'dist/src/cli/main.js' },
    base: { type: 'string' },
    prefer: { type: 'string', default: 'code=400, example=duplicateId' },
  },
});
const builds = [...(values.base ? [{ label: `before (${values.base})`, cli: values.base }] : []), { label: `after (${values.cli})`, cli: values.cli }];
/** @type {Map<string, { first: number[], second: number[], statuses: Set<number> }>} */
const samples = new Map(builds.map((build) => [build.label, { first: [], second: [], statuses: new Set() }]));
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) {
  for (const build of builds) {
    const timed = /** @type {{ first: { status: number, ms: number }, second: { status: number, ms: number } }} */ (
      await timeFirstPrefer(build.cli, values.prefer)
    );
    const sample = /** @type {{ first: number[], second: number[], statuses: Set<number> }} */ (samples.get(build.label));
    sample.first.push(timed.first.ms);
    sample.second.push(timed.second.ms);
    sample.statuses.add(timed.first.status);
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
console.log(`Prefer: ${values.prefer}; ${rounds} fresh starts each, medians (min–max)`);
for (const [label, { first, second, statuses }] of samples) {
  const range = (/** @type {number[]} */ list) => `${median(list).toFixed(0)} ms (${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)})`;
  console.log(`${label}: first Prefer ${range(first)}, second ${range(second)}, status ${[...statuses].join('/')}`);
}
