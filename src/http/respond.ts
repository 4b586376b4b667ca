import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { Answer, StreamSink } from './answer.js';

/** What was put on the wire, for the journal. */
export interface SentMessage {
  readonly headers: Record<string, string>;
  readonly body: string | Buffer;
  /** Bytes of the whole body when more than `body` was sent (a streamed rest). */
  readonly size?: number;
}

/** Puts the answer on the wire: all of it, or only the head when `slowBody` leaves the body to `dripBody`. */
export function send(response: ServerResponse, answer: Answer, cors: Record<string, string> | undefined, unreadBody: boolean, slowBody: boolean): SentMessage {
  const headers = cors === undefined ? { ...answer.headers } : { ...cors, ...answer.headers };
  if (answer.stream !== undefined) return startStream(response, answer, headers, answer.stream);
  // A streamed rest keeps the Content-Length the answer declares, if any; otherwise it goes chunked.
  if (answer.rest === undefined) headers['content-length'] = String(Buffer.byteLength(answer.body));
  if (unreadBody) headers.connection = 'close';
  response.writeHead(answer.status, headers);
  if (answer.rest !== undefined && !slowBody) response.write(answer.body);
  else if (!slowBody || answer.body.length === 0) response.end(answer.body);
  // Node holds the head until the first write: a slow body's head goes now, its body over the duration.
  else response.flushHeaders();
  return { headers, body: answer.body };
}

/** A streamed answer: the head and `body` now, no Content-Length, then the stream writes until it or the client ends. */
function startStream(response: ServerResponse, answer: Answer, headers: Record<string, string>, stream: (sink: StreamSink) => void): SentMessage {
  response.writeHead(answer.status, headers);
  response.write(answer.body);
  const sink: StreamSink = {
    write: (text) => !response.destroyed && !response.writableEnded && (response.write(text), true),
    // The response's own buffer and its socket's: what a reader that falls behind makes the process hold.
    queued: () => response.writableLength,
    end: () => {
      if (!response.writableEnded) response.end();
    },
    destroy: () => {
      response.destroy();
    },
    onClose: (listener) => {
      // A client gone before the stream began has already closed: tell the listener anyway.
      if (response.closed) queueMicrotask(listener);
      else response.once('close', listener);
    },
  };
  stream(sink);
  return { headers, body: answer.body };
}

/**
 * Pipes an answer's rest after its first part (`sent` bytes) and resolves, once it ended or failed,
 * with the bytes of the whole body passed on. A failure has closed the connection (the client sees
 * a cut answer, never one that looks whole).
 */
export async function sendRest(response: ServerResponse, rest: Readable, sent: number): Promise<number> {
  // Loaded here: node:stream/promises costs a start ~2 ms, and few answers stream a rest. Before the
  // 'data' listener below: that sets the rest flowing, and no chunk may pass before the pipe is laid.
  const { pipeline } = await import('node:stream/promises');
  let size = sent;
  rest.on('data', (chunk: Buffer) => (size += chunk.length));
  try {
    await pipeline(rest, response);
  } catch {
    // pipeline has destroyed both: the upstream's body and the client's connection.
  }
  return size;
}

/** A fault's way of not answering: close the connection (empty) or reset it. */
export function drop(request: IncomingMessage, reset: boolean): SentMessage {
  if (reset) request.socket.resetAndDestroy();
  else request.socket.destroy();
  return { headers: {}, body: '' };
}

/**
 * Whether a body the pipeline never read (refused first: auth, 404, 405, …) is still arriving. Node
 * would drain all of it to keep the connection, megabytes maybe; the answer closes it instead. A
 * refusal is decided before Node has parsed a body that came in the same read as the headers, so
 * that read is let finish first: a small body already received keeps the connection.
 */
export async function bodyLeftUnread(request: IncomingMessage): Promise<boolean> {
  if (request.complete) return false;
  const { headers } = request;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) return false;
  await nextTurn();
  return !request.complete;
}

/**
 * Sends the body in about ten pieces spread over `durationMs` after the head, the last one at the
 * end of it, stopping if the client leaves. Each piece waits for its own point in time from the
 * start, so timer lateness does not add up and the drip lasts the whole duration, not 9/10 of it.
 */
export async function dripBody(response: ServerResponse, body: Buffer, durationMs: number, end = true): Promise<void> {
  if (body.length === 0) return;
  const started = performance.now();
  const size = Math.ceil(body.length / Math.min(10, body.length));
  // Counted from the size: 15 bytes in pieces of 2 are 8 pieces, not 10 (the old drip ended at 80 %).
  const pieces = Math.ceil(body.length / size);
  for (let piece = 0, offset = 0; offset < body.length; piece += 1, offset += size) {
    const wait = started + ((piece + 1) * durationMs) / pieces - performance.now();
    if (wait > 0) await sleep(wait, undefined, { ref: false });
    if (response.destroyed) return;
    response.write(body.subarray(offset, offset + size));
  }
  // A streamed rest follows the dripped part and ends the answer itself.
  if (end) response.end();
}
