/**
 * A receiver that never answers (issue 17, item 3): deliveries past the pending cap are dropped,
 * and that is seen — counted in health and /__control/webhooks, warned of in the log (a few lines,
 * not one per drop) — and the shown history keeps its documented size (200), pending ones included.
 * Real processes: the built CLI and a TCP receiver that accepts connections and never answers.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnServe } from '../persistence/cli-server.js';
import { peakRssMiB, STARTUP_MS, stopProcess } from '../support/peer-load.js';
import { send, VALID_HEADERS } from '../support/server.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;
const CREATES = 1_100;
/** The documented defaults: --webhook-max-pending 1000, --webhook-history 200. */
const MAX_PENDING = 1_000;
const HISTORY = 200;
let receiver: Server;
const held = new Set<Socket>();

beforeAll(async () => {
  receiver = createServer((socket) => {
    held.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => held.delete(socket));
    // Reads what comes and never answers.
    socket.resume();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => receiver.close(resolve));
});

it('counts, logs and shows the deliveries dropped for a receiver that never answers', async ({ annotate }) => {
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const server = await spawnServe(['--spec', PUBLIC, '--webhook', hook], STARTUP_MS);
  const agent = new Agent({ connections: 8 });
  try {
    let next = 1;
    const creates = async () => {
      while (next <= CREATES) {
        const id = next++;
        const answer = await request(`${server.url}/plants`, {
          method: 'POST',
          headers: VALID_HEADERS,
          body: `{"name":"p${id}","id":${id}}`,
          dispatcher: agent,
        });
        await answer.body.dump();
        expect(answer.statusCode).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, creates));

    const health = (await send(`${server.url}/__control/health`)).json as { webhooks?: unknown };
    const shown = (await send(`${server.url}/__control/webhooks`)).json as { deliveries: { state: string }[]; dropped?: number; pending?: number };
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('warning: webhooks:'));
    await annotate(
      `health.webhooks ${JSON.stringify(health.webhooks)}; shown ${shown.deliveries.length}; warning lines ${warnings.length}; peak RSS ${peakRssMiB(server.child.pid)} MiB`,
    );
    expect({
      health: health.webhooks,
      control: { pending: shown.pending, dropped: shown.dropped },
      shown: shown.deliveries.length,
      // The newest deliveries are the dropped ones; the history still ends with them.
      lastState: shown.deliveries.at(-1)?.state,
      warned: warnings.length >= 1 && warnings.length <= 3,
    }).toEqual({
      health: { pending: MAX_PENDING, dropped: CREATES - MAX_PENDING },
      control: { pending: MAX_PENDING, dropped: CREATES - MAX_PENDING },
      shown: HISTORY,
      lastState: 'dropped',
      warned: true,
    });
    expect(warnings[0]).toMatch(/dropped: 1000 were already waiting \(--webhook-max-pending\)/);
  } finally {
    await agent.close();
    await stopProcess(server.child);
  }
}, 90_000);
