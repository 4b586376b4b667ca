// @ts-check
// How fast `plantstore verify` judges a target: the whole public Plant Store document (list, create,
// delete by int64 id), the stateful model on, against a fresh `plantstore serve` each round.
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
import { parseArgs } from 'node:util';
import { freePort, installCleanup, stop, tailBuffer, track, waitUntilAnswering } from './lib/children.mjs';
import { cpuTicks, CLK_TCK } from './lib/cpu.mjs';

/** CPU ticks of this process's children that have ended and been waited for (cutime + cstime): verify's, read around its run. */
function endedChildrenTicks() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]);
}
import { ROOT } from './lib/config.mjs';
import { TOKEN } from './targets.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3000' },
    base: { type: 'string' },
    spec: { type: 'string', default: 'spec/plant-store-public.yaml' },
  },
});
const rounds = Number(values.rounds);
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
const builds = [{ name: 'this build', cli: CLI }, ...(values.base ? [{ name: `base ${values.base}`, cli: path.resolve(values.base) }] : [])];
installCleanup(60 * 30);

/** One round for one build: a fresh server, one verify run; verify's JSON report and the server's CPU seconds. */
async function round(cli) {
  const port = await freePort();
  const server = track(
    spawn(process.execPath, [CLI, 'serve', '--spec', values.spec, '--port', String(port), '--token', TOKEN, '--log-level', 'silent'], {
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
    const args = [
      cli,
      'verify',
      '--target',
      `http://127.0.0.1:${port}`,
      '--spec',
      values.spec,
      '--runs',
      values.runs,
      '--seed',
      '8',
      '--stateful',
      '--json',
      report,
    ];
    const output = tailBuffer();
    const verifyTicks = endedChildrenTicks();
    const verify = track(spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, CONTRACT_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] }));
    verify.stdout.on('data', (chunk) => output.push(chunk));
    verify.stderr.on('data', (chunk) => output.push(chunk));
    const exit = await verify.exited;
    const serverSeconds = (cpuTicks(server.pid) - serverTicks) / CLK_TCK;
    const verifySeconds = (endedChildrenTicks() - verifyTicks) / CLK_TCK;
    if (exit.code !== 0) throw new Error(`verify exited ${exit.code}: ${output.text.slice(-800)}`);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    return { casesPerSecond: json.casesPerSecond, casesRun: json.casesRun, seconds: (json.durationMs - json.shrinkMs) / 1000, serverSeconds, verifySeconds };
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

process.stderr.write(`verify speed: ${values.spec}, --runs ${values.runs} --stateful, ${rounds} rounds; load average ${loadavg()[0].toFixed(1)}\n`);
const samples = builds.map(() => /** @type {Awaited<ReturnType<typeof round>>[]} */ ([]));
for (let r = 0; r < rounds; r++) {
  for (const [i, build] of builds.entries()) {
    const sample = await round(build.cli);
    samples[i]?.push(sample);
    process.stderr.write(
      `  round ${r + 1} ${build.name}: ${sample.casesRun} requests, ${sample.casesPerSecond} cases/s (CPU: verify ${sample.verifySeconds.toFixed(2)} s, server ${sample.serverSeconds.toFixed(2)} s; load ${loadavg()[0].toFixed(1)})\n`,
    );
  }
}
const medians = builds.map((build, i) => ({
  build: build.name,
  casesPerSecond: median((samples[i] ?? []).map((s) => s.casesPerSecond)),
  verifySeconds: median((samples[i] ?? []).map((s) => s.verifySeconds)),
  serverSeconds: median((samples[i] ?? []).map((s) => s.serverSeconds)),
}));
for (const m of medians)
  console.log(
    `${m.build.padEnd(40)} median ${m.casesPerSecond} cases/s; CPU per run: verify ${m.verifySeconds.toFixed(2)} s, server ${m.serverSeconds.toFixed(2)} s`,
  );
if (medians.length === 2 && medians[1] && medians[0]) {
  const [mine, base] = medians;
  console.log(
    `ratio this/base: ${(mine.casesPerSecond / base.casesPerSecond).toFixed(2)}× cases/s; CPU: verify ${(mine.verifySeconds / base.verifySeconds).toFixed(2)}×, server ${(mine.serverSeconds / base.serverSeconds).toFixed(2)}×`,
  );
}
console.log(`load average at the end: ${loadavg()[0].toFixed(1)} (2 cores; above ~1 the figures are disturbed)`);
