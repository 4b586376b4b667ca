/**
 * Why a request was refused, as plain data. Every stage of the pipeline returns one of these
 * instead of throwing; the responder turns it into an `Error` body ({error, message}).
 *
 * `error` is the numeric indicator of the document's Error schema. Its values follow the HTTP
 * status they are named after, so a reader can guess them; the table is in the README.
 */
export const ErrorCode = {
  /** The body cannot be read as JSON: malformed, empty, not UTF-8, nested too deep. */
  badRequest: 400,
  /** No usable bearer credentials. */
  unauthorized: 401,
  /** The open control API refuses a Host that is not this server's own name (DNS rebinding). */
  hostNotAllowed: 403,
  /** No operation has this path. */
  notFound: 404,
  /** The path exists, the method does not. */
  methodNotAllowed: 405,
  /** A plant with this id is already stored. */
  duplicateId: 409,
  /** The body is larger than the limit. */
  bodyTooLarge: 413,
  /** The content type is not one the operation accepts. */
  unsupportedMediaType: 415,
  /** The body is JSON but breaks the operation's schema. */
  schemaViolation: 422,
  /** A defect in the server itself; never the client's doing. */
  internal: 500,
  /** The change could not be made durable (--data-dir); nothing was stored. */
  storageFailed: 503,
  /** Too many request bodies are being received at once (--body-buffer-bytes); retry after Retry-After. */
  bodyBufferFull: 503,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface Failure {
  readonly error: ErrorCodeValue;
  readonly message: string;
  /** Headers the answer must carry, e.g. WWW-Authenticate or Allow. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Failures that are the server's, not the client's: their HTTP status is their own code. */
export function isServerFailure(refused: Failure): boolean {
  return refused.error >= 500;
}

export function failure(error: ErrorCodeValue, message: string, headers?: Readonly<Record<string, string>>): Failure {
  return headers ? { error, message, headers } : { error, message };
}

/** The Error body the document declares: {"error": <code>, "message": "..."}. */
export function errorJson(refused: Failure): string {
  return JSON.stringify({ error: refused.error, message: refused.message });
}
