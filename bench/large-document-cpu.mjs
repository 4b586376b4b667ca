// @ts-check
// Start-up on a large document, by CPU as well as by wall clock: spawn → first answer to a list
// operation, and the server's own CPU time (utime + stime) at that answer, for `plantstore serve`
// with an empty operations cache, with a warm one, another build's cold start (--base) and
// `prism mock`, in alternating rounds. CPU time is what a loaded machine sways least (the wall
// clock of a process that needs two cores suffers most): the figures of docs/performance.md's
// "large documents" section were taken with it while four sessions shared the machine.
//
//   node bench/large-document-cpu.mjs [--rounds 5] [--sizes 500000] [--document PATH]… [--cli dist/src/cli/main.js] [--base OTHER_CLI]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './lib/children.mjs';
import { cpuTicks, CLK_TCK } from './lib/cpu.mjs';
import { largeDocument } from './lib/large-document.mjs';

const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';
const HOST = '127.0.0.1';
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    sizes: { type: 'string', default: '500000' },
    document: { type: 'string', multiple: true, default: [] },
    cli: { type: 'string', default: 'dist/src/cli/main.js' },
    base: { type: 'string' },
  },
});

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

/** One start: wall ms and the server's CPU ms when its first answer has been read. @param {string[]} args @param {Record<string, string>} env @param {string} probe */
function timeStart(args, env, probe) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no answer within 120 s: ${args.join(' ')}`))), 120_000);
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited (${code}) before answering: ${args.join(' ')}`))));
    child.stdout.on('data', async (chunk) => {
      if (out.includes('listening on')) return;
      out += chunk;
      const port = /listening on http:\/\/[^\s:]+:(\d+)/.exec(out)?.[1];
      if (port === undefined) return;
      try {
        const answer = await fetch(`http://${HOST}:${port}${probe}`);
        await answer.arrayBuffer();
        resolve({ ms: performance.now() - t0, cpuMs: (cpuTicks(child.pid ?? 0) * 1000) / CLK_TCK });
      } catch (error) {
        reject(error);
      } finally {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.kill('SIGKILL');
      }
    });
  });
}

const work = await mkdtemp(join(tmpdir(), 'plantstore-large-cpu-'));
try {
  const documents = [];
  for (const size of values.sizes.split(',').filter(Boolean).map(Number)) {
    const path = join(work, `made-${size}.json`);
    await writeFile(path, largeDocument(size));
    documents.push({ label: `made to order, ${Math.round((await stat(path)).size / 1000)} KB`, path });
  }
  for (const path of values.document) documents.push({ label: `${path} (${Math.round((await stat(path)).size / 1000)} KB)`, path });
  for (const document of documents) {
    const paths = Object.keys(JSON.parse(await readFile(document.path, 'utf8')).paths ?? {});
    const probe = paths.find((path) => !path.includes('{')) ?? paths[0] ?? '/';
    const serve = (/** @type {string} */ cli) => [cli, 'serve', '--port', '0', '--host', HOST, '--spec', document.path];
    const warm = join(work, `warm-${documents.indexOf(document)}`);
    const cold = async () => ({ PLANTSTORE_CACHE_DIR: await mkdtemp(join(work, 'cold-')) });
    /** @type {{ label: string, args: () => Promise<string[]>, env: () => Promise<Record<string, string>> }[]} */
    const rows = [
      { label: 'plantstore serve, empty cache', args: async () => serve(values.cli), env: cold },
      { label: 'plantstore serve, warm cache', args: async () => serve(values.cli), env: async () => ({ PLANTSTORE_CACHE_DIR: warm }) },
      ...(values.base ? [{ label: 'base build, empty cache', args: async () => serve(/** @type {string} */ (values.base)), env: cold }] : []),
      {
        label: 'prism mock',
        args: async () => [PRISM, 'mock', document.path, '-p', String(await freePort()), '-h', HOST, '--multiprocess=false'],
        env: async () => ({}),
      },
    ];
    await timeStart(serve(values.cli), { PLANTSTORE_CACHE_DIR: warm }, probe); // fills the warm cache, not counted
    const samples = rows.map(() => ({ ms: /** @type {number[]} */ ([]), cpu: /** @type {number[]} */ ([]) }));
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [index, row] of rows.entries()) {
        const { ms, cpuMs } = /** @type {{ ms: number, cpuMs: number }} */ (await timeStart(await row.args(), await row.env(), probe));
        samples[index]?.ms.push(ms);
        samples[index]?.cpu.push(cpuMs);
      }
      process.stderr.write(`[large-cpu] ${document.label}: round ${round + 1}/${values.rounds}\n`);
    }
    const prism = samples[samples.length - 1] ?? { ms: [], cpu: [] };
    console.log(
      `\n${document.label}: spawn → first answer to GET ${probe}, median of ${values.rounds} alternating rounds; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    for (const [index, row] of rows.entries()) {
      const { ms, cpu } = samples[index] ?? { ms: [], cpu: [] };
      const ratio = (/** @type {number[]} */ mine, /** @type {number[]} */ theirs) => (median(mine) / median(theirs)).toFixed(2);
      console.log(
        `  ${row.label.padEnd(30)} wall ${String(Math.round(median(ms))).padStart(6)} ms ${ratio(ms, prism.ms)}× prism   CPU ${String(Math.round(median(cpu))).padStart(6)} ms ${ratio(cpu, prism.cpu)}× prism   [${ms.map(Math.round).join(' ')}] [${cpu.join(' ')}]`,
      );
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
