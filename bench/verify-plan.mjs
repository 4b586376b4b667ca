// @ts-check
// verify's planning of a large document: `plantstore verify --dry-run` (load, infer, draw every
// operation's families; nothing is sent) from spawn to exit, for this build and, with --base, another,
// in alternating rounds. Medians and the ratio are printed; a round is marked disturbed when, just
// before it, the rest of the machine used more than a quarter of a core.
//
//   node bench/verify-plan.mjs [--rounds 5] [--document PATH]… [--cli dist/src/cli/main.js] [--base OTHER_CLI]
// --document: default Twilio's TaskRouter document (bench/documents/) and Eclipse Ditto's (test/fixtures/public/).
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { CLK_TCK, DISTURBED_OTHER_CPU, endedChildrenTicks, systemBusyTicks } from './lib/cpu.mjs';
import { median } from './lib/stats.mjs';

const DOCUMENTS = ['bench/documents/twilio_taskrouter_v1.json', 'test/fixtures/public/ditto-api-2.yml'];
/** Nothing listens there: a dry run never connects. */
const NOWHERE = 'http://127.0.0.1:9';

/** One dry run: wall ms, CPU ms, and whether the machine was busy just before. @param {string} cli @param {string} document */
async function timeDryRun(cli, document) {
  const busy0 = systemBusyTicks();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const disturbed = ((systemBusyTicks() - busy0) / CLK_TCK / 0.3) * 100 > DISTURBED_OTHER_CPU;
  const cpu0 = endedChildrenTicks();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'verify', '--spec', document, '--target', NOWHERE, '--dry-run'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${cli} verify --dry-run ${document} exited ${code}: ${errors.slice(0, 500)}`);
  return { ms: performance.now() - started, cpuMs: ((endedChildrenTicks() - cpu0) * 1000) / CLK_TCK, disturbed };
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    document: { type: 'string', multiple: true, default: [] },
    cli: { type: 'string', default: 'dist/src/cli/main.js' },
    base: { type: 'string' },
  },
});
const builds = [{ name: 'this build', cli: values.cli }, ...(values.base ? [{ name: `base ${values.base}`, cli: values.base }] : [])];
const documents = values.document.length > 0 ? values.document : DOCUMENTS;
for (const document of documents) {
  /** @type {Map<string, { ms: number[], cpu: number[], disturbed: number }>} */
  const samples = new Map(builds.map((build) => [build.name, { ms: [], cpu: [], disturbed: 0 }]));
  for (let round = 0; round < Number(values.rounds); round++) {
    // Alternate which build goes first, so neither always follows the other.
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const timed = await timeDryRun(build.cli, document);
      const sample = /** @type {{ ms: number[], cpu: number[], disturbed: number }} */ (samples.get(build.name));
      sample.ms.push(timed.ms);
      sample.cpu.push(timed.cpuMs);
      if (timed.disturbed) sample.disturbed++;
    }
  }
  console.log(`${basename(document)}: verify --dry-run, spawn to exit, median of ${values.rounds} alternating rounds`);
  for (const build of builds) {
    const { ms, cpu, disturbed } = /** @type {{ ms: number[], cpu: number[], disturbed: number }} */ (samples.get(build.name));
    const mark = disturbed * 2 > ms.length ? '  (disturbed)' : '';
    console.log(
      `  ${build.name.padEnd(40)} ${String(Math.round(median(ms))).padStart(6)} ms  CPU ${String(Math.round(median(cpu))).padStart(6)} ms  [${ms.map(Math.round).join(' ')}]${mark}`,
    );
  }
  // With --base, two builds: the ratio of their medians.
  const [self, base] = builds.map((build) => /** @type {{ ms: number[], cpu: number[] }} */ (samples.get(build.name)));
  if (self && base)
    console.log(`  ratio this/base: ${(median(self.ms) / median(base.ms)).toFixed(2)}× time, ${(median(self.cpu) / median(base.cpu)).toFixed(2)}× CPU`);
}
