import type { IncomingMessage } from 'node:http';
import { failure, type Failure } from '../core/errors.js';

export type BodyRead = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly failure: Failure };

/** The answer to a refused body closes the connection: the rest of the body is never read. */
const CLOSE = Object.freeze({ connection: 'close' });
const BUSY = Object.freeze({ connection: 'close', 'retry-after': '1' });

/** Bytes of request bodies buffered at once, across every request being read: slow senders cannot add up. */
export interface BodyBudget {
  readonly total: number;
  /** Takes `bytes` when that many are left, else takes nothing and says false. */
  take(bytes: number): boolean;
  release(bytes: number): void;
}

export function createBodyBudget(total: number): BodyBudget {
  let available = total;
  return {
    total,
    take(bytes) {
      if (bytes > available) return false;
      available -= bytes;
      return true;
    },
    release(bytes) {
      available += bytes;
    },
  };
}

const UNBOUNDED = createBodyBudget(Number.POSITIVE_INFINITY);

/**
 * Reads the request body up to `limit` bytes. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is refused as soon as it passes the limit. The bytes come
 * out of `budget` (a declared length all at once, a chunked body as it arrives); a failed read
 * gives them back, a successful one leaves the body's length for the caller to release.
 */
export function readBody(request: IncomingMessage, limit: number, budget: BodyBudget = UNBOUNDED): Promise<BodyRead> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve(tooLarge(limit));
  // A request can be gone before we start (the client left during a latency fault).
  if (request.destroyed) return Promise.resolve(gone());
  if (declared > 0 && !budget.take(declared)) return Promise.resolve(busy(budget));

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let taken = declared;
    let done = false;
    const finish = (result: BodyRead) => {
      if (done) return;
      done = true;
      // A body read whole leaves the stream ended: its listeners stay (the flag mutes them) and go with the request.
      if (!result.ok) request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted).off('close', onClose);
      budget.release(result.ok ? taken - size : taken);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        request.pause();
        finish(tooLarge(limit));
        return;
      }
      if (size > taken) {
        if (!budget.take(size - taken)) {
          request.pause();
          finish(busy(budget));
          return;
        }
        taken = size;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onError = (error: Error) => finish({ ok: false, failure: failure('badRequest', `the request body could not be read: ${error.message}`, CLOSE) });
    const onAborted = () => finish({ ok: false, failure: failure('badRequest', 'the client stopped sending the request body', CLOSE) });
    // 'close' before 'end': the stream was destroyed, and what it held will never be read.
    const onClose = () => finish(gone());
    request.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted).on('close', onClose);
  });
}

function tooLarge(limit: number): BodyRead {
  return { ok: false, failure: failure('bodyTooLarge', `the request body is larger than the limit of ${limit} bytes`, CLOSE) };
}

function gone(): BodyRead {
  return { ok: false, failure: failure('badRequest', 'the client closed the connection before sending the whole body', CLOSE) };
}

function busy(budget: BodyBudget): BodyRead {
  return {
    ok: false,
    failure: failure(
      'bodyBufferFull',
      `the server is already holding ${budget.total} bytes of request bodies being received (--body-buffer-bytes); retry in a moment`,
      BUSY,
    ),
  };
}
