/** What the document declares for an operation's answers, and how an answer is described in a finding. */
import { declaredResponse, isSuccess, type Operation } from '../../src/core/openapi/operation.js';
import type { ReceivedResponse } from '../report.js';
import type { Exchange } from './types.js';

export function isDeclared(operation: Operation, status: number): boolean {
  return declaredResponse(operation, status) !== undefined;
}

/** The declared codes, e.g. "200, 400". */
export function declaredCodes(operation: Operation): string {
  return operation.responses.map((r) => r.code).join(', ');
}

/** Declared codes in one class (2 for success, 4 for client errors), e.g. "200". */
export function declaredCodesIn(operation: Operation, hundreds: number): string {
  const codes = operation.responses.map((r) => r.code).filter((code) => code.startsWith(String(hundreds)));
  return codes.length === 0 ? `a ${hundreds}xx status` : codes.join(' or ');
}

/** What the operation declares for its failures, in words: "the document declares 400 for this operation's failures". */
function declaredFailures(operation: Operation): string {
  const codes = operation.responses.map((r) => r.code).filter((code) => code.startsWith('4') || code.toLowerCase() === 'default');
  // Not status-conformance's words for a document gap, which serve-conforms excuses: this warning is another.
  return codes.length === 0 ? 'the document declares no failure status at all here' : `the document declares ${codes.join(', ')} for this operation's failures`;
}

/**
 * Where the document is silent, an answer HTTP allows but the operation does not declare: the
 * reason in words, worded from the operation's own declarations, or undefined. These become
 * warnings (failures with --strict).
 */
export function silentlyAllowed(exchange: Exchange, status: number, operation: Operation): string | undefined {
  const { facts } = exchange;
  if (status === 401 && facts.kind === 'invalid' && facts.target === 'auth') {
    return `${declaredFailures(operation)}, none for refused credentials; HTTP (RFC 9110, RFC 6750) answers them 401`;
  }
  if (status === 415 && facts.kind === 'invalid' && facts.target === 'content-type') {
    return `${declaredFailures(operation)}, none for an unsupported content type; HTTP (RFC 9110) answers it 415`;
  }
  // A taken id: the scenario sends it again or may ('either'), it was sent as generated (perhaps
  // stored by an earlier run), or the same item under a never-used id was accepted.
  const retryStatus = facts.retry?.response.status;
  const idWasTaken =
    facts.expect === 'refuse' ||
    facts.expect === 'either' ||
    facts.role === 'repeat' ||
    facts.id?.freshness === 'literal' ||
    // The lifecycle's create again of a held item's id.
    facts.state?.step === 'duplicate' ||
    (retryStatus !== undefined && isSuccess(retryStatus));
  if (status === 409 && facts.kind === 'valid' && idWasTaken) {
    return `${declaredFailures(operation)}, no 409 for an id already in use; HTTP (RFC 9110) allows 409 Conflict`;
  }
  return undefined;
}

const BODY_SHOWN = 300;

const NO_ANSWER = { timeout: 'no answer (timeout)', connection: 'no answer (connection failed)', 'too-large': 'an answer too large to read' } as const;

/** One line for a finding's "actual": status, content type and the start of the body, or the error. */
export function describeResponse(response: ReceivedResponse): string {
  if (response.error) return `${NO_ANSWER[response.error.kind]}: ${response.error.message}`;
  const type = response.headers['content-type'];
  const body = response.body.length > BODY_SHOWN ? `${response.body.slice(0, BODY_SHOWN)}… (${response.body.length} characters)` : response.body;
  return `${response.status ?? '?'}${type ? ` (${type})` : ''}${body === '' ? ' with an empty body' : ` ${body}`}`;
}
