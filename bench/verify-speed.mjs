// @ts-check
// How fast `plantstore verify` judges a target: the whole public Plant Store document (list, create,
// delete by int64 id), the stateful model on, against a fresh `plantstore serve` each round.
// Exported as benchVerifySpeed() for bench/run.mjs (its goal table).
// Builds are alternated round by round, so they see the same machine load; the medians are compared.
//
//   node bench/verify-speed.mjs [--rounds 5] [--runs 3000] [--base other/dist/src/cli/main.js] [--spec spec/plant-store-public.yaml]
//
// cases/s is verify's own figure: requests sent and judged per second of the main phase (start-up and
// shrinking apart). The server is always this checkout's build, so only the suite differs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, installCleanup, stop, tailBuffer, track, waitUntilAnswering } from './lib/children.mjs';
import { cpuTicks, CLK_TCK, endedChildrenTicks } from './lib/cpu.mjs';
import { ROOT } from './lib/config.mjs';

import { TOKEN } from './targets.mjs';
import { median } from './lib/stats.mjs';

const CLI = path.join(ROOT, 'dist/src/cli/main.js');
/** The 1-minute load average (os.loadavg() always answers three figures). */
const load1 = () => /** @type {number} */ (loadavg()[0]);

/**
 * One round for one build: a fresh server, one verify run; verify's JSON report and the server's CPU seconds.
 * @param {string} cli @param {{ spec: string, runs: number }} options
 */
async function round(cli, { spec, runs }) {
  const port = await freePort();
  const server = track(
    spawn(process.execPath, [CLI, 'serve', '--spec', spec, '--port', String(port), '--token', TOKEN, '--log-level', 'silent'], {
      cwd: ROOT,
      stdio: 'ignore',
      detached: true,
    }),
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'verify-speed-'));
  try {
    await waitUntilAnswering(server, port, 20_000);
    const serverTicks = cpuTicks(server.pid);
    const report = path.join(dir, 'report.json');
    const args = [cli, 'verify', '--target', `http://127.0.0.1:${port}`, '--spec', spec, '--runs', String(runs), '--seed', '8', '--stateful', '--json', report];
    const output = tailBuffer();
    const verifyTicks = endedChildrenTicks();
    const verify = track(spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, CONTRACT_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] }));
    verify.stdout.on('data', (chunk) => output.push(chunk));
    verify.stderr.on('data', (chunk) => output.push(chunk));
    const exit = await verify.exited;
    const serverSeconds = (cpuTicks(server.pid) - serverTicks) / CLK_TCK;
    const verifySeconds = (endedChildrenTicks() - verifyTicks) / CLK_TCK;
    if (exit.code !== 0) throw new Error(`verify exited ${exit.code}: ${output.text.slice(-800)}`);
    /** @type {{ casesPerSecond: number, casesRun: number, durationMs: number, shrinkMs: number }} */
    const json = JSON.parse(readFileSync(report, 'utf8'));
    return { casesPerSecond: json.casesPerSecond, casesRun: json.casesRun, seconds: (json.durationMs - json.shrinkMs) / 1000, serverSeconds, verifySeconds };
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Alternates this build's verify with the base build's (if given) round by round, each against a fresh server of this build.
 * @param {{ rounds?: number, runs?: number, base?: string, spec?: string, log?: (line: string) => void }} [options]
 */
export async function benchVerifySpeed({ rounds = 5, runs = 3000, base, spec = 'spec/plant-store-public.yaml', log = () => {} } = {}) {
  const builds = [{ name: 'this build', cli: CLI }, ...(base ? [{ name: `base ${base}`, cli: path.resolve(base) }] : [])];
  const loadBefore = load1();
  log(`[verify] ${spec}, --runs ${runs} --stateful, ${rounds} rounds; load average ${loadBefore.toFixed(1)}\n`);
  const samples = builds.map(() => /** @type {Awaited<ReturnType<typeof round>>[]} */ ([]));
  for (let r = 0; r < rounds; r++) {
    for (const [i, build] of builds.entries()) {
      const sample = await round(build.cli, { spec, runs });
      samples[i]?.push(sample);
      log(
        `[verify] round ${r + 1} ${build.name}: ${sample.casesRun} requests, ${sample.casesPerSecond} cases/s (CPU: verify ${sample.verifySeconds.toFixed(2)} s, server ${sample.serverSeconds.toFixed(2)} s; load ${load1().toFixed(1)})\n`,
      );
    }
  }
  const loadAfter = load1();
  return {
    rounds,
    runs,
    spec,
    // On 2 cores verify and its server fill the machine; a load average well above 2 means something else ran.
    disturbed: Math.max(loadBefore, loadAfter) > 3,
    loadAverage: [loadBefore, loadAfter],
    builds: builds.map((build, i) => ({
      name: build.name,
      casesPerSecond: median((samples[i] ?? []).map((s) => s.casesPerSecond)),
      verifySeconds: median((samples[i] ?? []).map((s) => s.verifySeconds)),
      serverSeconds: median((samples[i] ?? []).map((s) => s.serverSeconds)),
      samples: (samples[i] ?? []).map((s) => s.casesPerSecond),
    })),
  };
}

/** @param {Awaited<ReturnType<typeof benchVerifySpeed>>} result */
export function verifySpeedText(result) {
  const lines = result.builds.map(
    (b) =>
      `${b.name.padEnd(40)} median ${b.casesPerSecond} cases/s  [${b.samples.join(' ')}]; CPU per run: verify ${b.verifySeconds.toFixed(2)} s, server ${b.serverSeconds.toFixed(2)} s`,
  );
  const [self, base] = result.builds;
  if (self && base)
    lines.push(
      `ratio this/base: ${(self.casesPerSecond / base.casesPerSecond).toFixed(2)}× cases/s; CPU: verify ${(self.verifySeconds / base.verifySeconds).toFixed(2)}×, server ${(self.serverSeconds / base.serverSeconds).toFixed(2)}×`,
    );
  lines.push(`load average before/after: ${result.loadAverage.map((l) => l.toFixed(1)).join(' / ')} (2 cores; above ~3 the figures are disturbed)`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3000' },
      base: { type: 'string' },
      spec: { type: 'string', default: 'spec/plant-store-public.yaml' },
    },
  });
  installCleanup(60 * 30);
  const result = await benchVerifySpeed({
    rounds: Number(values.rounds),
    runs: Number(values.runs),
    spec: values.spec,
    ...(values.base ? { base: values.base } : {}),
    log: (line) => process.stderr.write(line),
  });
  console.log(verifySpeedText(result));
}
