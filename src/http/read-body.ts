import type { IncomingMessage } from 'node:http';
import { ErrorCode, failure, type Failure } from '../errors/failure.js';

export type BodyRead = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly failure: Failure };

/** The answer to a refused body closes the connection: the rest of the body is never read. */
const CLOSE = Object.freeze({ connection: 'close' });

/**
 * Reads the request body up to `limit` bytes. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is refused as soon as it passes the limit.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const tooLarge = (): BodyRead => ({ ok: false, failure: failure(ErrorCode.bodyTooLarge, `the request body is larger than the limit of ${limit} bytes`, CLOSE) });
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve(tooLarge());

  const gone = (): BodyRead => ({ ok: false, failure: failure(ErrorCode.badRequest, 'the client closed the connection before sending the whole body', CLOSE) });
  // A request can be gone before we start (the client left during a latency fault).
  if (request.destroyed) return Promise.resolve(gone());

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.pause();
        finish(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onError = (error: Error) => finish({ ok: false, failure: failure(ErrorCode.badRequest, `the request body could not be read: ${error.message}`, CLOSE) });
    const onAborted = () => finish({ ok: false, failure: failure(ErrorCode.badRequest, 'the client stopped sending the request body', CLOSE) });
    // 'close' before 'end': the stream was destroyed, and what it held will never be read.
    const onClose = () => finish(gone());
    request.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted).on('close', onClose);
  });
}
