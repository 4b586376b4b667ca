/**
 * The HTTP status policy, in one place: which status a refusal gets, how a status fault answers,
 * and how a Failure is worded on the wire, by the stages and by the raw socket answers alike.
 */
import { ErrorCode, errorJson, failure, isServerFailure, type ErrorCodeValue, type Failure } from '../errors/failure.js';
import type { Fault } from '../faults/faults.js';
import type { Answer } from './answer.js';
import { answered, refused, type Reply, type ServedOperation } from './context.js';

export { errorJson } from '../errors/failure.js';

/**
 * The HTTP status of a refusal: its own code when the operation declares that status (a document
 * declaring 401 or 404 gets them) or when it is the server's failure (5xx), else the document's
 * failure status: for the Plant Store, whose only failure is 400, always 400.
 */
export function statusOf(refusedWith: Failure, operation: Pick<ServedOperation, 'declared' | 'failureStatus'>): number {
  return operation.declared.has(refusedWith.error) || isServerFailure(refusedWith) ? refusedWith.error : operation.failureStatus;
}


/** A refusal as the answer on the wire: the document's Error body, with the Failure's headers. */
export function refusal(refusedWith: Failure, status: number): Answer {
  return { status, headers: { 'content-type': 'application/json', ...refusedWith.headers }, body: errorJson(refusedWith) };
}

/** What a fault forces instead of the real answer; undefined when it lets the request through (slow-body). */
export function faultReply(fault: Fault, operation: ServedOperation): Reply | undefined {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? operation.failureStatus;
      // RFC 9110: these statuses carry no content.
      if (status === 204 || status === 205 || status === 304) return answered({ status, headers: {}, body: '' });
      return refused(failure((fault.error ?? status) as ErrorCodeValue, fault.message ?? `fault: forced status ${status} for ${operation.name}`), status);
    }
    case 'reset':
      return { kind: 'drop', reset: true };
    case 'empty':
      return { kind: 'drop', reset: false };
    default:
      return undefined;
  }
}

/** A defect of ours, answered without detail; the stack goes to the log. */
export const INTERNAL_ERROR: Reply = refused(failure(ErrorCode.internal, 'the stand-in failed to answer; this is a plantstore defect, please report it'), 500);

/** CONNECT asks for a tunnel; a stand-in is no proxy. RFC 9110 §15.5.6: an empty Allow says no method is served there. */
export function connectRefusal(target: string): { readonly status: number; readonly failure: Failure } {
  return { status: 405, failure: failure(ErrorCode.methodNotAllowed, `plantstore is not a proxy: CONNECT ${target} is not served; send requests to the stand-in's own paths`) };
}

/** The status and Error of a request Node could not parse or did not receive in time ('clientError'). */
export function clientErrorRefusal(code: string | undefined, message: string): { readonly status: number; readonly failure: Failure } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, failure: failure(ErrorCode.badRequest, 'the request was not received in time') };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, failure: failure(ErrorCode.badRequest, 'the request headers are too large') };
    default:
      return { status: 400, failure: failure(ErrorCode.badRequest, `malformed HTTP request (${code ?? message})`) };
  }
}
