/**
 * Why a request was refused, as plain data. Every stage of the pipeline returns one of these
 * instead of throwing; the responder turns it into an `Error` body ({error, message}).
 *
 * `error` is the numeric indicator of the document's Error schema. Its values follow the HTTP
 * status they are named after, so a reader can guess them; they are defined, with their status
 * rules, in the error table (src/core/errors.ts) and listed in the README.
 */
import { ERRORS, type RefusalName } from '../core/errors.js';

export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.entries(ERRORS).flatMap(([name, entry]) => ('error' in entry ? [[name, entry.error]] : []))),
) as { readonly [K in RefusalName]: (typeof ERRORS)[K]['error'] };

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
