/**
 * Live journal streams (SSE) whose readers never read (issue 17, item 5), over real processes: 16
 * streams stop reading while plants are created. Each stream may queue --journal-stream-bytes
 * (1 MiB by default) for its reader; past it the reader is dropped: its last event says why, the
 * server closes it and logs a warning, and the server's memory stays bounded meanwhile.
 */
import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { expect, it } from 'vitest';
import { spawnServe } from '../persistence/cli-server.js';
import { peakRssMiB, pollUntil, probeLatency, STARTUP_MS, stopProcess } from '../support/peer-load.js';
import { VALID_HEADERS } from '../support/server.js';

const STREAMS = 16;
/** The issue's load; the loop stops sooner once the streams are dropped. */
const MAX_CREATES = 7_500;
/** Creates after the first drop, so every stream has passed its cap before the readers wake. */
const AFTER_DROP = 300;
/** A name of 3 KiB makes each journal entry (and event) about 7 KiB. */
const NAME = 'n'.repeat(3 * 1024);

interface Reader {
  readonly socket: Socket;
  text: string;
  closedByServer: boolean;
}

/** Opens the stream on a raw socket and stops reading at once (the kernel's buffers fill, then the server's queue). */
function openStalled(port: number): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const reader: Reader = { socket, text: '', closedByServer: false };
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => (reader.text += chunk.toString('utf8')));
    socket.on('end', () => (reader.closedByServer = true));
    socket.on('connect', () => {
      socket.write('GET /__control/journal/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      // Take the answer's head, then stop reading.
      socket.once('data', () => {
        socket.pause();
        resolve(reader);
      });
    });
  });
}

it('drops and tells readers that fall behind, with memory bounded and the API answering', async ({ annotate }) => {
  const server = await spawnServe([], STARTUP_MS);
  const port = Number(new URL(server.url).port);
  const agent = new Agent({ connections: 8 });
  const readers = await Promise.all(Array.from({ length: STREAMS }, () => openStalled(port)));
  try {
    const probe = probeLatency(`${server.url}/__control/health`);
    const warned = () => server.output().includes('warning: journal stream:');
    let next = 1;
    let stopAt = MAX_CREATES;
    const creates = async () => {
      while (next <= stopAt) {
        const id = next++;
        const answer = await request(`${server.url}/plants`, {
          method: 'POST',
          headers: VALID_HEADERS,
          body: `{"name":"${NAME}","id":${id}}`,
          dispatcher: agent,
        });
        await answer.body.dump();
        if (warned() && stopAt === MAX_CREATES) stopAt = Math.min(MAX_CREATES, id + AFTER_DROP);
      }
    };
    await Promise.all(Array.from({ length: 8 }, creates));
    const longestWaitMs = await probe.stop();
    const peakMiB = peakRssMiB(server.child.pid);
    for (const reader of readers) reader.socket.resume();
    await pollUntil(
      async () => readers.filter((reader) => reader.closedByServer).length,
      (closed) => closed === STREAMS,
      15_000,
    );
    // The raw text is chunked (no Content-Length): the last event named is the last event sent.
    const lastEvents = readers.map((reader) => [...reader.text.matchAll(/^event: (\w+)$/gm)].at(-1)?.[1]);
    await annotate(
      `${next - 1} creates; peak RSS ${peakMiB} MiB; longest API wait ${longestWaitMs} ms; closed by the server ${readers.filter((r) => r.closedByServer).length}`,
    );
    expect(
      {
        closedByServer: readers.filter((reader) => reader.closedByServer).length,
        lastEvents: new Set(lastEvents),
        peakBelow400: peakMiB < 400,
        answeredWithin1s: longestWaitMs < 1000,
      },
      `peak ${peakMiB} MiB, longest wait ${longestWaitMs} ms after ${next - 1} creates`,
    ).toEqual({
      closedByServer: STREAMS,
      lastEvents: new Set(['dropped']),
      peakBelow400: true,
      answeredWithin1s: true,
    });
    expect(readers[0]?.text).toMatch(
      /event: dropped\ndata: \{"reason":"this reader fell more than 1048576 bytes behind the journal \(--journal-stream-bytes\)/,
    );
    // The dropped streams' slots are free again: a new reader is served.
    const fresh = await request(`${server.url}/__control/journal/events?limit=1`, { headersTimeout: 5000 });
    expect(fresh.statusCode).toBe(200);
    fresh.body.destroy();
  } finally {
    for (const reader of readers) reader.socket.destroy();
    await agent.close();
    await stopProcess(server.child);
  }
}, 120_000);
