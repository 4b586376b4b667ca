/**
 * Every answer's status is one the document declares for the operation, as the one judge says
 * (src/core/conformance/judge.ts). Where the document is silent and HTTP allows another status
 * (401 for a missing token, 409 for a taken id) this warns instead. 5xx are no-server-errors' alone,
 * so a crash is reported once. An operation that declares no response at all is not judged.
 */
import { answerJudgement, violationOf } from './answer-judgement.js';
import { declaredCodes, describeResponse, silentlyAllowed } from './declared.js';
import type { Operation } from '../../src/core/openapi/operation.js';
import { byAnswer, fail, PASS, warn, type Check, type Exchange } from './types.js';

export const statusConformance: Check<'status-conformance'> = {
  id: 'status-conformance',
  title: 'Statuses are declared',
  description: 'Every answer has a status the document declares for the operation (404 and 405 never are).',
  judge(exchange, { operation, sameRoute }) {
    const status = exchange.response.status;
    if (status === undefined || status >= 500) return undefined;
    // No response declared at all (OpenAPI 3.1 lets `responses` be left out): nothing to conform to.
    if (operation.responses.length === 0) return undefined;
    const judgement = answerJudgement(exchange.response, operation);
    if (judgement === undefined || violationOf(judgement, 'status') === undefined) return PASS;
    // Another operation on the route (Box's "#" alternatives) may have answered: its statuses are declared too.
    if (
      sameRoute?.some((other) => {
        const theirs = answerJudgement(exchange.response, other);
        return theirs !== undefined && violationOf(theirs, 'status') === undefined;
      })
    )
      return PASS;
    const problem = {
      key: byAnswer(String(status)),
      expected: `one of ${declaredCodes(operation)}`,
      expectation: { kind: 'declared-status' as const, codes: operation.responses.map((r) => r.code) },
      actual: describeResponse(exchange.response),
      message: `${status} is not declared for ${operation.method.toUpperCase()} ${operation.path} (${exchange.request.label})`,
    };
    const allowance =
      undeclaredFailure(exchange, operation, status) ?? undeclaredNotFound(exchange, operation, status) ?? silentlyAllowed(exchange, status, operation);
    return allowance === undefined ? fail(problem) : warn({ ...problem, message: `${problem.message}; ${allowance}` });
  },
};

/**
 * A 404 for an item id the run never created (a drawn id), where the operation declares other
 * failure statuses but not 404: many documents leave it out, and HTTP answers 404 for an item the
 * server does not hold (RFC 9110 §15.5.5). The gap is the document's, so it warns (--strict fails it).
 */
function undeclaredNotFound(exchange: Exchange, operation: Operation, status: number): string | undefined {
  const { facts } = exchange;
  if (status !== 404 || !operation.path.includes('{') || facts.ownedItem === true) return undefined;
  if (facts.itemMayBeAbsent !== true && facts.kind !== 'invalid') return undefined;
  const declared = operation.responses.filter((r) => r.code.startsWith('4')).map((r) => r.code);
  return `a 404 for an item id the run never created: the document declares ${declared.join(', ')} but not 404 for ${operation.method.toUpperCase()} ${operation.path} (a gap in the document; HTTP answers 404 for an item the server does not hold)`;
}

/** Statuses that say how credentials are refused, and nothing about a request's content. */
const CREDENTIAL_STATUSES = new Set(['401', '403']);

/**
 * Where the operation declares no failure status at all (no 4xx, no default), or only those of
 * refused credentials (Eclipse Ditto's PUT /devops/logging: 201 and 401), a server cannot refuse
 * in a declared way: 400 for a request it cannot accept and 404 for an item it does not
 * hold are HTTP's own answers (RFC 9110 §15.5.1, §15.5.5). The omission is the document's, so it
 * warns (as Schemathesis users expect a documentation gap reported, not a server bug).
 */
function undeclaredFailure(exchange: Exchange, operation: Operation, status: number): string | undefined {
  const failures = operation.responses.filter((r) => r.code.startsWith('4') || r.code.toLowerCase() === 'default').map((r) => r.code);
  const credentialsOnly = failures.length > 0 && failures.every((code) => CREDENTIAL_STATUSES.has(code));
  // 404 says an item is absent, never that a request is invalid (Ory Kratos's GET /self-service/errors: 403, 404): a 400 to an invalid one is HTTP's.
  const notFoundToo = !credentialsOnly && failures.length > 0 && failures.every((code) => CREDENTIAL_STATUSES.has(code) || code === '404');
  if (notFoundToo && status === 400 && exchange.facts.kind === 'invalid' && exchange.facts.target !== 'auth') {
    return `the document declares failure statuses for refused credentials and absent items only (${failures.join(', ')}) for this operation; HTTP (RFC 9110) refuses an invalid request 400`;
  }
  if (failures.length > 0 && !credentialsOnly) return undefined;
  const declares = credentialsOnly
    ? `the document declares failure statuses for refused credentials only (${failures.join(', ')}) for this operation`
    : 'the document declares no failure status for this operation';
  // Where 401 or 403 is declared, a refused credential has its declared answer: a 400 to it is no gap.
  if (status === 400 && exchange.facts.kind === 'invalid' && !(credentialsOnly && exchange.facts.target === 'auth')) {
    return `${declares}; HTTP (RFC 9110) refuses an invalid request 400`;
  }
  if (status === 409 && silentlyAllowed(exchange, status, operation) !== undefined) {
    return `${declares}; HTTP (RFC 9110) answers 409 Conflict to a create of an id already in use`;
  }
  if (status === 404 && operation.path.includes('{')) {
    return `${declares}; HTTP (RFC 9110) answers 404 for an item the server does not hold`;
  }
  return undefined;
}
