import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from '../core/http/headers.js';
import type { Socket } from 'node:net';
import type { Failure } from '../core/errors.js';
import type { Logger } from '../log/logger.js';
import { clientErrorRefusal, connectRefusal, errorJson } from './refusal.js';

/**
 * Answers Node gives no ServerResponse for (malformed or overdue requests, CONNECT) are written
 * straight to the socket. On a pipelined connection earlier requests may still be answering
 * (Node queues their responses; one may wait on a latency fault or an fsync), so the raw answer
 * waits until they are all on the wire: every request read gets its own answer, in order.
 */

const LAST = Symbol('plantstore.lastResponse');
const PREVIOUS = Symbol('plantstore.previousResponse');
const ANSWERED = Symbol('plantstore.answeredRaw');

interface TrackedSocket extends Socket {
  [LAST]?: ServerResponse;
  [PREVIOUS]?: ServerResponse | undefined;
  [ANSWERED]?: true;
}

/** Called for every request: two stores on the socket, no allocation. */
export function trackResponse(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket as TrackedSocket;
  socket[PREVIOUS] = socket[LAST];
  socket[LAST] = response;
}

/** The malformed-HTTP answer ('clientError'): an Error body with a code a person can look up. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, logger: Logger): void {
  const { status, failure: refused } = clientErrorRefusal(error.code, error.message);
  logger.debug(`rejected a malformed request: ${error.code ?? error.message}`);
  answerOnSocket(socket, status, refused);
}

/** CONNECT: refused with an empty Allow (refusal.ts). */
export function answerConnect(request: IncomingMessage, socket: Socket, logger: Logger): void {
  logger.debug(`refused CONNECT ${request.url ?? ''}`);
  const { status, failure: refused } = connectRefusal(request.url ?? '');
  answerOnSocket(socket, status, refused, 'Allow: \r\n');
}

/** Writes one raw answer and closes, after every answer still due on this connection. */
function answerOnSocket(socket: Socket, status: number, refused: Failure, extraHeaders = ''): void {
  const tracked = socket as TrackedSocket;
  // A parser in error reports again on every later read, and a slow connection can time out
  // while it waits: one answer per connection.
  if (tracked[ANSWERED]) return;
  tracked[ANSWERED] = true;
  const write = () => {
    // The last answer said Connection: close, or the client left: nothing more may be written.
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = errorJson(refused);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`,
    );
  };
  const pending = lastAnswerDue(tracked);
  if (pending === undefined) write();
  else pending.once('finish', write);
}

/**
 * The response the raw answer must follow, or undefined when nothing is left to send. Node sends
 * a connection's responses in request order, so when the last one has finished all have. A
 * request whose body was still arriving is the one the error is about: it gets the error instead.
 */
function lastAnswerDue(socket: TrackedSocket): ServerResponse | undefined {
  const last = socket[LAST];
  const due = last !== undefined && !last.req.complete ? socket[PREVIOUS] : last;
  return due === undefined || hasFinished(due) ? undefined : due;
}

/** 'finish' was emitted (Node then detaches the socket and has nothing buffered), or the response is gone. */
function hasFinished(response: ServerResponse): boolean {
  return response.destroyed || (response.writableEnded && response.socket === null && response.writableLength === 0);
}
