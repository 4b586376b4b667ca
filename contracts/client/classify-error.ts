/**
 * What went wrong when no proper answer came: the target was too slow ('timeout'), the
 * connection failed or was dropped ('connection'), or the request could not be sent at all
 * ('unsendable', the client's own refusal, which says nothing about the target), or an answer came
 * that was larger than the client reads ('too-large': the target was reached).
 */
export type ErrorKind = 'timeout' | 'connection' | 'too-large' | 'unsendable';

export interface ClassifiedError {
  readonly kind: ErrorKind;
  readonly message: string;
}

/** The most header bytes an answer may carry (Node's own default, set on the client's Pool): more is a finding about the answer, not an unreachable target. */
export const MAX_HEADER_BYTES = 16 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const UNSENDABLE_CODES = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_ARG_TYPE']);

export function classifyError(error: unknown): ClassifiedError {
  const code = codeOf(error);
  const message = describe(error, code);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { kind: 'timeout', message };
  if (code !== undefined && UNSENDABLE_CODES.has(code)) return { kind: 'unsendable', message };
  if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'timeout', message };
  if (error instanceof Error && error.name === 'AnswerTooLargeError') return { kind: 'too-large', message: error.message };
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return { kind: 'too-large', message: `answer headers larger than ${MAX_HEADER_BYTES} bytes (${message})` };
  // Everything else (ECONNREFUSED, ECONNRESET, EPIPE, UND_ERR_SOCKET "other side closed", a malformed
  // answer undici could not parse) is a connection that did not carry an answer.
  return { kind: 'connection', message };
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // undici wraps socket errors: the system code is on the cause.
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? undefined : codeOf(cause);
}

function describe(error: unknown, code: string | undefined): string {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof AggregateError && error.errors.length > 0) {
    return `${code ?? 'error'}: ${error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ')}`;
  }
  return code !== undefined && !text.includes(code) ? `${code}: ${text}` : text;
}
