/**
 * Every answer's status is one the document declares for the operation. Where the document is
 * silent and HTTP allows another status (401 for a missing token, 409 for a taken id) this warns
 * instead. 5xx are no-server-errors' alone, so a crash is reported once.
 */
import { declaredCodes, describeResponse, isDeclared, silentlyAllowed } from './declared.js';
import { byAnswer, fail, PASS, warn, type Check } from './types.js';

export const statusConformance: Check<'status-conformance'> = {
  id: 'status-conformance',
  title: 'Statuses are declared',
  description: 'Every answer has a status the document declares for the operation (404 and 405 never are).',
  judge(exchange, { operation }) {
    const status = exchange.response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isDeclared(operation, status)) return PASS;
    const problem = {
      key: byAnswer(String(status)),
      expected: `one of ${declaredCodes(operation)}`,
      expectation: { kind: 'declared-status' as const, codes: operation.responses.map((r) => r.code) },
      actual: describeResponse(exchange.response),
      message: `${status} is not declared for ${operation.method.toUpperCase()} ${operation.path} (${exchange.request.label})`,
    };
    const allowance = silentlyAllowed(exchange, status);
    return allowance === undefined ? fail(problem) : warn({ ...problem, message: `${problem.message}; ${allowance}` });
  },
};
