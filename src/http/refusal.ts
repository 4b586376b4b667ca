/**
 * Refusals on the wire: the body the operation declares (or our Error body) with a Failure's headers, what a fault forces, and the
 * Failures of the raw socket answers. Their statuses come from the error table's rules
 * (statusOf in src/core/errors.ts), as every stage's do.
 */
import { errorMessage, failure, forcedFailure, statusOf, type Failure } from '../core/errors.js';
import { ERROR_BODY, type RefusalShaper } from '../core/openapi/refusal-body.js';
import type { Fault } from '../faults/faults.js';
import type { Answer } from './answer.js';
import { answered, refused, type Reply, type ServedOperation } from './context.js';

export { errorJson } from '../core/errors.js';

/**
 * A refusal as the answer on the wire, with the Failure's headers: its body in the shape the
 * operation declares for `status` (compiled with the operation), our Error body before routing.
 */
export function refusal(refusedWith: Failure, status: number, shape: RefusalShaper = ERROR_BODY): Answer {
  const { contentType, body } = shape(refusedWith, status);
  return { status, headers: { 'content-type': contentType, ...refusedWith.headers }, body };
}

/** What a fault forces instead of the real answer; undefined when it lets the request through (slow-body). */
export function faultReply(fault: Fault, operation: ServedOperation): Reply | undefined {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? operation.failureStatus;
      // Names lower-cased, as every other header the pipeline sends.
      const headers = Object.fromEntries(Object.entries(fault.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      // RFC 9110: these statuses carry no content.
      if (status === 204 || status === 205 || status === 304) return answered({ status, headers, body: '' });
      const forced = forcedFailure(fault.error ?? status, fault.message ?? errorMessage('forcedStatus', status, operation.name));
      return refused(fault.headers === undefined ? forced : { ...forced, headers }, operation, status);
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
export const INTERNAL_ERROR: Reply = refused(failure('internal', 'the stand-in failed to answer; this is a plantstore defect, please report it'));

/** A refusal written on the raw socket, where no operation is involved: only numeric rules apply. */
export interface SocketRefusal {
  readonly status: number;
  readonly failure: Failure;
}

function onSocket(refusedWith: Failure): SocketRefusal {
  return { status: statusOf(refusedWith), failure: refusedWith };
}

// The two fixed ones are worded once; Node reports them again on every later read of a broken connection.
const TIMED_OUT = onSocket(failure('requestTimeout', errorMessage('requestTimeout')));
const HEADERS_TOO_LARGE = onSocket(failure('headersTooLarge', errorMessage('headersTooLarge')));

/** CONNECT asks for a tunnel; a stand-in is no proxy. RFC 9110 §15.5.6: an empty Allow says no method is served there. */
export function connectRefusal(target: string): SocketRefusal {
  return onSocket(failure('notAProxy', errorMessage('notAProxy', target)));
}

/** The status and Error of a request Node could not parse or did not receive in time ('clientError'). */
export function clientErrorRefusal(code: string | undefined, message: string): SocketRefusal {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return TIMED_OUT;
    case 'HPE_HEADER_OVERFLOW':
      return HEADERS_TOO_LARGE;
    default:
      return onSocket(failure('malformedHttp', errorMessage('malformedHttp', code ?? message)));
  }
}
