import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Answer, StreamSink } from './answer.js';

/** What was put on the wire, for the journal. */
export interface SentMessage {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Puts the answer on the wire: all of it, or only the head when `slowBody` leaves the body to `dripBody`. */
export function send(response: ServerResponse, answer: Answer, cors: Record<string, string> | undefined, unreadBody: boolean, slowBody: boolean): SentMessage {
  const headers = cors === undefined ? { ...answer.headers } : { ...cors, ...answer.headers };
  if (answer.stream !== undefined) return startStream(response, answer, headers, answer.stream);
  headers['content-length'] = String(Buffer.byteLength(answer.body));
  if (unreadBody) headers.connection = 'close';
  response.writeHead(answer.status, headers);
  if (!slowBody || answer.body.length === 0) response.end(answer.body);
  return { headers, body: answer.body };
}

/** A streamed answer: the head and `body` now, no Content-Length, then the stream writes until it or the client ends. */
function startStream(response: ServerResponse, answer: Answer, headers: Record<string, string>, stream: (sink: StreamSink) => void): SentMessage {
  response.writeHead(answer.status, headers);
  response.write(answer.body);
  const sink: StreamSink = {
    write: (text) => !response.destroyed && !response.writableEnded && (response.write(text), true),
    end: () => {
      if (!response.writableEnded) response.end();
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

/** Sends the body in about ten pieces spread over `durationMs`, stopping if the client leaves. */
export async function dripBody(response: ServerResponse, body: Buffer, durationMs: number): Promise<void> {
  if (body.length === 0) return;
  const pieces = Math.min(10, body.length);
  const size = Math.ceil(body.length / pieces);
  for (let offset = 0; offset < body.length; offset += size) {
    if (response.destroyed) return;
    response.write(body.subarray(offset, offset + size));
    if (offset + size < body.length) await sleep(durationMs / pieces, undefined, { ref: false });
  }
  response.end();
}
