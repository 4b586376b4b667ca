// @ts-check
// Start-up on large documents: spawn → "listening on" line → first answer to a list operation, for
// `plantstore serve` with an empty operations cache (what CI always sees), with a warm one, and for
// `prism mock` of the same document; rounds alternate so load falls on every row alike. Medians and
// the ratio to prism are printed; a row is marked disturbed when, just before most of its samples,
// the rest of the machine used more than a quarter of a core.
//
//   node bench/large-document.mjs [--rounds 5] [--sizes 500000,5000000] [--document PATH]… [--cli dist/src/cli/main.js] [--base OTHER_CLI]
// --sizes: documents made to order (bench/lib/large-document.mjs), about this many bytes each.
// --document: a document of your own (a public one: see docs/performance.md for those we timed).
// --base: also time another build's cold start, in the same alternation (before/after a change).
//
// Exported as benchLargeDocuments() for bench/run.mjs (its goal table).
import { mkdtemp, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { whenListening } from './lib/listening.mjs';
import { freePort } from './lib/children.mjs';
import { CLK_TCK, cpuTicks, DISTURBED_OTHER_CPU, systemBusyTicks } from './lib/cpu.mjs';
import { largeDocument } from './lib/large-document.mjs';
import { HOST } from './targets.mjs';
import { median } from './lib/stats.mjs';

const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';

/** The first path without parameters that has a GET, else the first path: what the first request asks for. */
async function firstListPath(/** @type {string} */ path) {
  const text = await import('node:fs/promises').then((fs) => fs.readFile(path, 'utf8'));
  const paths = text.trimStart().startsWith('{') ? Object.keys(JSON.parse(text).paths ?? {}) : [];
  return paths.find((p) => !p.includes('{')) ?? paths[0] ?? '/';
}

/**
 * One timed start: ms to the first answer, the server's own CPU ms by then (user + system: what a loaded
 * machine sways least), and whether the rest of the machine was busy meanwhile.
 * @param {string[]} args @param {Record<string, string>} env @param {string} probe
 */
async function timeStart(args, env, probe) {
  // The rest of the machine's load, just before the spawn (a starting node uses more than one core itself).
  const busy0 = systemBusyTicks();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const othersPercent = ((systemBusyTicks() - busy0) / CLK_TCK / 0.3) * 100;
  const result = await whenListening(
    args,
    async (port, sinceSpawn, pid) => {
      const answer = await fetch(`http://${HOST}:${port}${probe}`);
      await answer.arrayBuffer();
      return { ms: sinceSpawn(), cpuMs: (cpuTicks(pid) * 1000) / CLK_TCK, status: answer.status };
    },
    { env, limitMs: 120_000 },
  );
  return { ...result, disturbed: othersPercent > DISTURBED_OTHER_CPU };
}

/** @typedef {{ id: string, label: string, medianMs: number, overPrism: number, cpuMedianMs: number, cpuOverPrism: number, samplesMs: number[], disturbed: boolean }} LargeRow */

/**
 * Times every document's start in alternating rounds: plantstore with an empty and a warm operations cache,
 * the base build (if given) with an empty one, and prism mock.
 * @param {{ rounds?: number, sizes?: number[], documents?: string[], cli?: string, base?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ rounds: number, documents: { label: string, probe: string, rows: LargeRow[] }[] }>}
 */
export async function benchLargeDocuments({
  rounds = 5,
  sizes = [500_000, 5_000_000],
  documents: own = [],
  cli = 'dist/src/cli/main.js',
  base,
  log = () => {},
} = {}) {
  const work = await mkdtemp(join(tmpdir(), 'plantstore-large-'));
  try {
    /** @type {{ label: string, path: string }[]} */
    const documents = [];
    for (const size of sizes) {
      const path = join(work, `made-${size}.json`);
      await writeFile(path, largeDocument(size));
      documents.push({ label: `made to order, ${Math.round((await stat(path)).size / 1000)} KB`, path });
    }
    for (const path of own) documents.push({ label: `${basename(path)} (${Math.round((await stat(path)).size / 1000)} KB)`, path });

    const results = [];
    for (const document of documents) {
      const probe = await firstListPath(document.path);
      const warmCache = join(work, 'warm-cache');
      // One start fills the warm cache; its time is not counted. Not --log-level silent: that prints no
      // "listening on" line, so the start was waited on until its 120 s limit and its failure swallowed.
      await timeStart([cli, 'serve', '--port', '0', '--host', HOST, '--spec', document.path], { PLANTSTORE_CACHE_DIR: warmCache }, probe);
      const serve = (/** @type {string} */ main) => [main, 'serve', '--port', '0', '--host', HOST, '--spec', document.path];
      /** @type {{ id: string, label: string, args: () => Promise<string[]>, env: () => Promise<Record<string, string>> }[]} */
      const rows = [
        {
          id: 'cold',
          label: 'plantstore serve, empty cache',
          args: async () => serve(cli),
          env: async () => ({ PLANTSTORE_CACHE_DIR: await mkdtemp(join(work, 'cold-')) }),
        },
        { id: 'warm', label: 'plantstore serve, warm cache', args: async () => serve(cli), env: async () => ({ PLANTSTORE_CACHE_DIR: warmCache }) },
        ...(base
          ? [
              {
                id: 'base',
                label: `base build, empty cache`,
                args: async () => serve(base),
                env: async () => ({ PLANTSTORE_CACHE_DIR: await mkdtemp(join(work, 'cold-')) }),
              },
            ]
          : []),
        {
          id: 'prism',
          label: 'prism mock',
          args: async () => [PRISM, 'mock', document.path, '-p', String(await freePort()), '-h', HOST, '--multiprocess=false', '-v', 'info'],
          env: async () => ({}),
        },
      ];
      /** @typedef {{ ms: number[], cpu: number[], disturbed: number }} Samples */
      /** @type {Map<string, Samples>} */
      const samples = new Map(rows.map((row) => [row.id, { ms: [], cpu: [], disturbed: 0 }]));
      for (let round = 0; round < rounds; round++) {
        for (const row of rows) {
          const sample = /** @type {Samples} */ (samples.get(row.id));
          const timed = await timeStart(await row.args(), await row.env(), probe);
          sample.ms.push(timed.ms);
          sample.cpu.push(timed.cpuMs);
          if (timed.disturbed) sample.disturbed++;
        }
        log(`[large] ${document.label}: round ${round + 1}/${rounds}\n`);
      }
      const prism = /** @type {Samples} */ (samples.get('prism'));
      results.push({
        label: document.label,
        probe,
        rows: rows.map((row) => {
          const { ms, cpu, disturbed } = /** @type {Samples} */ (samples.get(row.id));
          return {
            id: row.id,
            label: row.label,
            medianMs: median(ms),
            overPrism: median(ms) / median(prism.ms),
            cpuMedianMs: median(cpu),
            cpuOverPrism: median(cpu) / median(prism.cpu),
            samplesMs: ms.map(Math.round),
            disturbed: disturbed * 2 > ms.length,
          };
        }),
      });
    }
    return { rounds, documents: results };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** @param {Awaited<ReturnType<typeof benchLargeDocuments>>} result */
export function largeDocumentText(result) {
  return result.documents
    .map((document) =>
      [
        `${document.label}: spawn → first answer to GET ${document.probe}, median of ${result.rounds} alternating rounds`,
        ...document.rows.map(
          (row) =>
            `  ${row.label.padEnd(32)} ${String(Math.round(row.medianMs)).padStart(6)} ms  ${row.overPrism.toFixed(2)}× prism  CPU ${String(Math.round(row.cpuMedianMs)).padStart(6)} ms ${row.cpuOverPrism.toFixed(2)}× prism  [${row.samplesMs.join(' ')}]${row.disturbed ? '  (disturbed)' : ''}`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      sizes: { type: 'string', default: '500000,5000000' },
      document: { type: 'string', multiple: true, default: [] },
      cli: { type: 'string', default: 'dist/src/cli/main.js' },
      base: { type: 'string' },
    },
  });
  const result = await benchLargeDocuments({
    rounds: Number(values.rounds),
    sizes: values.sizes.split(',').filter(Boolean).map(Number),
    documents: values.document,
    cli: values.cli,
    ...(values.base ? { base: values.base } : {}),
    log: (line) => process.stderr.write(line),
  });
  console.log(`\n${largeDocumentText(result)}`);
}
