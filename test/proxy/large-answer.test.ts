/**
 * serve --proxy against an upstream answering 512 MiB (issue 17, item 4), over real processes:
 * the answer is streamed through, never held (the server's peak RSS stays under 400 MiB and the
 * control API answers within 1 s meanwhile), and the journal says its body was not judged; with
 * --proxy-strict such an answer is a 502 naming why (too large to judge, not "not valid UTF-8");
 * and the proxy's time-out bounds the whole answer, not only the gaps between its bytes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnServe } from '../persistence/cli-server.js';
import { peakRssMiB, probeLatency, STARTUP_MS, stopProcess } from '../support/peer-load.js';
import { AUTH, expectError, send } from '../support/server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const UPSTREAM = fileURLToPath(new URL('./bulk-upstream.mjs', import.meta.url));
const ANSWER_BYTES = 512 * 1024 * 1024;
let upstream: ChildProcess;
let upstreamPort: number;

beforeAll(async () => {
  // Its own process: pumping 512 MiB in this one would slow the probe that times the stand-in.
  upstream = spawn(process.execPath, [UPSTREAM, String(ANSWER_BYTES)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  upstreamPort = await new Promise<number>((resolve, reject) => {
    upstream.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    upstream.once('exit', (code) => reject(new Error(`the upstream exited (${code}) before listening`)));
  });
});

afterAll(async () => {
  await stopProcess(upstream);
});

const upstreamUrl = () => `http://127.0.0.1:${upstreamPort}`;

/** GETs `url` and counts its body's bytes without keeping them. */
async function countBody(url: string): Promise<{ status: number; bytes: number }> {
  const answer = await request(url, { headers: AUTH, headersTimeout: 20_000, bodyTimeout: 20_000 });
  let bytes = 0;
  for await (const chunk of answer.body) bytes += (chunk as Buffer).length;
  return { status: answer.statusCode, bytes };
}

it('streams a 512 MiB answer through: memory bounded, the API answering, the journal saying it was not judged', async ({ annotate }) => {
  // The time-out bounds the whole answer: 512 MiB through two loopback hops on a busy 2-core machine needs more than the default 10 s.
  const server = await spawnServe(['--spec', PUBLIC, '--proxy', upstreamUrl(), '--request-timeout-ms', '60000'], STARTUP_MS);
  try {
    const probe = probeLatency(`${server.url}/__control/health`);
    const received = await countBody(`${server.url}/plants`);
    const longestWaitMs = await probe.stop();
    const peakMiB = peakRssMiB(server.child.pid);
    await annotate(`peak RSS ${peakMiB} MiB, longest API wait ${longestWaitMs} ms, ${received.bytes} bytes passed on`);
    expect({ received, peakBelow400: peakMiB < 400, answeredWithin1s: longestWaitMs < 1000 }, `peak ${peakMiB} MiB, longest wait ${longestWaitMs} ms`).toEqual({
      received: { status: 200, bytes: ANSWER_BYTES },
      peakBelow400: true,
      answeredWithin1s: true,
    });
    const [entry] = (await send(`${server.url}/__control/journal?limit=1&path=/plants`)).json as {
      status: number;
      violations?: { check: string; message: string }[];
      response: { bodySize: number; truncated: boolean };
    }[];
    expect(entry).toMatchObject({ status: 200, response: { bodySize: ANSWER_BYTES, truncated: true } });
    expect(entry?.violations).toEqual([expect.objectContaining({ check: 'body-size', message: expect.stringMatching(/not judged/) })]);
  } finally {
    await stopProcess(server.child);
  }
}, 90_000);

it('with --proxy-strict: a 502 naming the size for an answer too large to judge, and one deadline for the whole answer', async ({ annotate }) => {
  const server = await spawnServe(['--spec', PUBLIC, '--proxy', upstreamUrl(), '--proxy-strict', '--request-timeout-ms', '1000'], STARTUP_MS);
  try {
    const tooLarge = await send(`${server.url}/plants`, { headers: AUTH });
    expect(expectError(tooLarge, 502, 502)).toMatch(/too large to judge.*larger than --proxy-body-limit/);
    const started = performance.now();
    const dripping = await send(`${server.url}/plants?limit=1`, { headers: AUTH });
    const elapsedMs = Math.round(performance.now() - started);
    await annotate(`too large: ${tooLarge.text}; dripping upstream answered after ${elapsedMs} ms: ${dripping.text}`);
    expect(expectError(dripping, 502, 502)).toMatch(/did not send its whole answer within 1000 ms/);
    expect(elapsedMs).toBeLessThan(5000);
    expect(peakRssMiB(server.child.pid)).toBeLessThan(400);
  } finally {
    await stopProcess(server.child);
  }
}, 90_000);

it('cuts a streamed answer that outlasts the deadline: the client sees it incomplete, the journal says why', async ({ annotate }) => {
  const server = await spawnServe(['--spec', PUBLIC, '--proxy', upstreamUrl(), '--request-timeout-ms', '1500'], STARTUP_MS);
  try {
    const started = performance.now();
    const answer = await request(`${server.url}/plants?limit=2`, { headers: AUTH, headersTimeout: 10_000, bodyTimeout: 10_000 });
    let bytes = 0;
    const ending = await (async () => {
      try {
        for await (const chunk of answer.body) bytes += (chunk as Buffer).length;
        return 'whole';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    })();
    const elapsedMs = Math.round(performance.now() - started);
    await annotate(`status ${answer.statusCode}, ${bytes} bytes, then ${ending} after ${elapsedMs} ms`);
    // Headed 200 with the upstream's Content-Length (8 MiB); cut after the 5 MiB sent: never a body that looks whole.
    expect({ status: answer.statusCode, ending, cutShort: bytes < 8 * 1024 * 1024, inTime: elapsedMs < 6000 }).toEqual({
      status: 200,
      ending: expect.not.stringMatching(/^whole$/),
      cutShort: true,
      inTime: true,
    });
    const [entry] = (await send(`${server.url}/__control/journal?limit=1&path=/plants`)).json as { violations?: { check: string; message: string }[] }[];
    expect(entry?.violations?.map((violation) => violation.check)).toEqual(['body-size', 'incomplete']);
    expect(entry?.violations?.[1]?.message).toMatch(/not complete within 1500 ms/);
  } finally {
    await stopProcess(server.child);
  }
}, 90_000);
