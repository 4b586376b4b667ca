/**
 * One delivery attempt over HTTP. The receiver's status is its verdict; of the body that follows
 * only the first few KiB are read (to show in the journal), then the connection is closed: a
 * receiver answering 1 GiB costs the stand-in a few KiB, and a 2xx whose body is cut, slow or
 * huge is still an accepted delivery. The time-out bounds the whole attempt, not each gap.
 */
import { undici } from '../core/http/undici.js';

/** Bytes of a receiver's answer read and kept (the journal shows no more of a body). */
export const ANSWER_BYTES_READ = 4096;

export interface AttemptAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The first ANSWER_BYTES_READ bytes of the body, as text. */
  readonly body: string;
}

export type AttemptOutcome = { readonly response: AttemptAnswer } | { readonly error: string };

export interface AttemptRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Aborts the attempt (the server is closing). */
  readonly signal: AbortSignal;
}

/** Sends one attempt; never throws. */
export async function attempt({ url, method, headers, body, timeoutMs, signal }: AttemptRequest): Promise<AttemptOutcome> {
  // A controller per attempt, let go of at its end (AbortSignal.any would tie each one to the sender's long-lived signal).
  const deadline = new AbortController();
  const abort = () => deadline.abort();
  const timer = setTimeout(abort, timeoutMs);
  signal.addEventListener('abort', abort, { once: true });
  try {
    const { request } = await undici();
    const answer = await request(url, { method: method.toUpperCase() as 'POST', headers: { ...headers }, body, signal: deadline.signal });
    return { response: { status: answer.statusCode, headers: answer.headers, body: await readHead(answer.body, ANSWER_BYTES_READ) } };
  } catch (error) {
    if (deadline.signal.aborted && !signal.aborted) return { error: `no answer within ${timeoutMs} ms` };
    return { error: error instanceof Error ? `${error.message}${codeOf(error)}` : String(error) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

/** Up to `limit` bytes of `body`, then the rest is not read: leaving the loop early destroys the stream (and its connection). */
async function readHead(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // A body cut short or late: the status has been received, and it decides.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` (${code})` : '';
}
