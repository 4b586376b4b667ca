/**
 * A receiver answering a webhook with 200 and 512 MiB (issue 17, item 2): the real server reads
 * only the status and a few KiB, so its memory stays bounded, the API keeps answering, and the
 * delivery the receiver accepted counts as delivered, sent once and never again.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnServe } from '../persistence/cli-server.js';
import { peakRssMiB, pollUntil, probeLatency, STARTUP_MS, stopProcess } from '../support/peer-load.js';
import { send, VALID_HEADERS } from '../support/server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const ANSWER_BYTES = 512 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
let receiver: Server;
let requests = 0;
let bytesSent = 0;

/** Writes `bytes` spaces as fast as the reader takes them; stops when it goes. */
function answerHuge(response: ServerResponse, bytes: number): void {
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(bytes) });
  let sent = 0;
  response.on('error', () => {});
  const pump = () => {
    while (sent < bytes && !response.destroyed) {
      sent += CHUNK.length;
      bytesSent += CHUNK.length;
      if (!response.write(CHUNK)) return void response.once('drain', pump);
    }
    response.end();
  };
  pump();
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    requests += 1;
    // The stand-in may close the connection mid-answer: that is what it should do.
    request.on('error', () => {});
    request.resume();
    request.on('end', () => answerHuge(response, ANSWER_BYTES));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it("reads a few KiB of a receiver's 512 MiB answer: delivered once, memory bounded, the API answering", async ({ annotate }) => {
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const server = await spawnServe(['--spec', PUBLIC, '--webhook', hook], STARTUP_MS);
  try {
    const probe = probeLatency(`${server.url}/__control/health`);
    const created = await send(`${server.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: '{"name":"Fern","id":1}' });
    expect(created.status).toBe(200);
    type Deliveries = { deliveries: { state: string; attempts: number; status?: number }[] };
    const shown = await pollUntil(
      async () => (await send(`${server.url}/__control/webhooks`)).json as Deliveries,
      (value) => value.deliveries[0]?.state !== 'pending',
      15_000,
    );
    const longestWaitMs = await probe.stop();
    const peakMiB = peakRssMiB(server.child.pid);
    await annotate(`peak RSS ${peakMiB} MiB, longest API wait ${longestWaitMs} ms, receiver sent ${bytesSent} bytes`);
    // Everything at once, so a failure shows every figure.
    expect(
      { delivery: shown.deliveries[0], requests, peakBelow400: peakMiB < 400, answeredWithin1s: longestWaitMs < 1000 },
      `peak ${peakMiB} MiB, longest API wait ${longestWaitMs} ms, ${bytesSent} bytes sent by the receiver`,
    ).toEqual({
      delivery: expect.objectContaining({ state: 'delivered', attempts: 1, status: 200 }),
      requests: 1,
      peakBelow400: true,
      answeredWithin1s: true,
    });
    // The receiver was not made to send its whole answer.
    expect(bytesSent).toBeLessThan(ANSWER_BYTES / 4);
  } finally {
    await stopProcess(server.child);
  }
}, 90_000);
