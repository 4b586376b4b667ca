/** The error table: the Error body numbers the README documents, and exit codes read from errors. */
import { describe, expect, it } from 'vitest';
import { ERRORS, errorMessage, EXIT_CODES, PlantstoreError } from '../../src/core/errors.js';
import { ErrorCode } from '../../src/errors/failure.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { DocumentError } from '../../src/core/openapi/load-document.js';
import { SetupError } from '../../contracts/runner/setup.js';

describe('the error table', () => {
  it('gives the pipeline the Error body numbers it always had', () => {
    expect(ErrorCode).toEqual({
      badRequest: 400, unauthorized: 401, hostNotAllowed: 403, notFound: 404, methodNotAllowed: 405, duplicateId: 409,
      bodyTooLarge: 413, unsupportedMediaType: 415, schemaViolation: 422, internal: 500, storageFailed: 503, bodyBufferFull: 503,
    });
  });

  it('has one code per entry, and a status rule for every refusal', () => {
    const codes = Object.values(ERRORS).map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of Object.values(ERRORS)) {
      if ('error' in entry) expect(entry.status === 'declared' || typeof entry.status === 'number').toBe(true);
    }
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
