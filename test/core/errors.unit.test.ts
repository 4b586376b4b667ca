/** The error table: the Error body numbers docs/errors.md documents, and exit codes read from errors. */
import { describe, expect, it } from 'vitest';
import { ErrorCode, ERRORS, errorMessage, EXIT_CODES, failure, forcedFailure, PlantstoreError, statusOf } from '../../src/core/errors.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { DocumentError } from '../../src/core/openapi/load-document.js';
import { SetupError } from '../../contracts/runner/setup.js';

describe('the error table', () => {
  it('gives the pipeline the Error body numbers it always had', () => {
    expect(ErrorCode).toEqual({
      missingHost: 400,
      malformedHttp: 400,
      requestTimeout: 400,
      headersTooLarge: 400,
      badRequest: 400,
      badPrefer: 400,
      unauthorized: 401,
      hostNotAllowed: 403,
      notFound: 404,
      itemNotFound: 404,
      methodNotAllowed: 405,
      notAProxy: 405,
      duplicateId: 409,
      // Sign-in's refusals (docs/sign-in.md): a taken username or email, wrong credentials, a session ended.
      credentialsTaken: 409,
      wrongCredentials: 401,
      sessionEnded: 401,
      bodyTooLarge: 413,
      unsupportedMediaType: 415,
      schemaViolation: 422,
      invalidId: 400,
      idMismatch: 422,
      internal: 500,
      storageFailed: 503,
      bodyBufferFull: 503,
      tooManyStreams: 503,
      upstreamTooLarge: 502,
      upstreamUnreachable: 502,
      upstreamViolation: 502,
    });
  });

  it('has one code per entry, and a status rule for every refusal', () => {
    const codes = Object.values(ERRORS).map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of Object.values(ERRORS)) {
      if ('error' in entry) expect(entry.status === 'declared' || typeof entry.status === 'number').toBe(true);
    }
  });

  it("decides a refusal's status from its rule and the operation, or the override", () => {
    const plantStore = { declared: new Set([200, 400]), failureStatus: 400 };
    const declares401 = { declared: new Set([200, 400, 401]), failureStatus: 400 };
    const unauthorized = failure('unauthorized', 'x');
    expect(statusOf(unauthorized, plantStore)).toBe(400);
    expect(statusOf(unauthorized, declares401)).toBe(401);
    expect(statusOf(unauthorized, plantStore, 401)).toBe(401);
    expect(statusOf(failure('notFound', 'x'), plantStore)).toBe(404);
    expect(statusOf(failure('storageFailed', 'x'), plantStore)).toBe(503);
    // Before routing and on the raw socket there is no operation: numeric rules only.
    expect(statusOf(failure('requestTimeout', 'x'))).toBe(408);
    expect(statusOf(failure('headersTooLarge', 'x'))).toBe(431);
    expect(statusOf(failure('notAProxy', 'x'))).toBe(405);
    expect(statusOf(failure('missingHost', 'x'))).toBe(400);
    expect(statusOf(forcedFailure(418, 'x'), plantStore, 503)).toBe(503);
  });

  it('errors carry their code and exit code, whichever side threw them', () => {
    for (const error of [new UsageError('x'), new DocumentError('x'), new SetupError('x')]) {
      expect(error).toBeInstanceOf(PlantstoreError);
      expect(error.exitCode).toBe(EXIT_CODES.setup);
    }
    expect(new UsageError('x').code).toBe('PST_ERR_USAGE');
    expect(new UsageError('x').name).toBe('UsageError');
  });

  it('fills message templates', () => {
    expect(errorMessage('notFound', '/nowhere')).toBe('no operation has the path /nowhere');
  });
});
