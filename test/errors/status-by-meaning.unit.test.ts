/**
 * statusOf chooses a refusal's status by what it means, among the statuses the operation declares
 * (exactly, by a `4XX` range or by `default`): never a status that means something else just
 * because it is the one declared.
 */
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { failure, statusOf, type NumberedName } from '../../src/core/errors.js';
import { declaredFailureStatus, declaredStatuses } from '../../src/core/openapi/operation.js';

/** An operation declaring these response codes, as prism builds them. */
function declaring(...codes: string[]) {
  return declaredStatuses({ responses: codes.map((code) => ({ code })) } as unknown as IHttpOperation);
}

const status = (name: NumberedName, codes: string[]) => statusOf(failure(name, 'x'), declaring(...codes));

describe('a refusal status by meaning', () => {
  it('keeps 400 for everything the Plant Store (200, 400) refuses', () => {
    for (const name of ['badRequest', 'schemaViolation', 'unsupportedMediaType', 'bodyTooLarge', 'unauthorized', 'duplicateId', 'itemNotFound'] as const) {
      expect(status(name, ['200', '400']), name).toBe(400);
    }
  });

  it('never answers a validation refusal with the first declared 4xx when that means something else', () => {
    // The case: a wrong content type answered 404 on a document whose first failure is 404.
    expect(status('unsupportedMediaType', ['201', '404'])).toBe(400);
    expect(status('schemaViolation', ['200', '401', '403', '404'])).toBe(400);
    expect(status('badRequest', ['200', '404'])).toBe(400);
    expect(status('duplicateId', ['201', '404'])).toBe(409);
    expect(status('unauthorized', ['200', '404'])).toBe(401);
  });

  it('takes the refusal’s own status where declared, else one meaning the same', () => {
    expect(status('schemaViolation', ['200', '400', '422'])).toBe(422);
    expect(status('badRequest', ['200', '400', '422'])).toBe(400);
    expect(status('unsupportedMediaType', ['200', '400', '422'])).toBe(400);
    expect(status('unsupportedMediaType', ['200', '415', '422'])).toBe(415);
    expect(status('badRequest', ['200', '422'])).toBe(422);
    expect(status('unauthorized', ['200', '400', '403'])).toBe(403);
    expect(status('unauthorized', ['200', '400', '401', '403'])).toBe(401);
    expect(status('itemNotFound', ['200', '400', '404'])).toBe(404);
    expect(status('itemNotFound', ['200', '422'])).toBe(422);
    expect(status('duplicateId', ['201', '409', '400'])).toBe(409);
  });

  it('answers a path segment that cannot be an identifier as no such item (404) where 400 is not declared', () => {
    // GET /owners/abc on owners-pets.yaml, which declares 200 and 404 only.
    expect(status('invalidId', ['200', '404'])).toBe(404);
    expect(status('invalidId', ['200', '400', '404'])).toBe(400);
    expect(status('invalidId', ['200', '422'])).toBe(422);
    expect(status('invalidId', ['204'])).toBe(400);
  });

  it('counts default and 4XX as declaring every status they cover', () => {
    for (const codes of [
      ['200', 'default'],
      ['200', '4XX'],
      ['200', '4xx'],
    ]) {
      expect(status('badRequest', codes)).toBe(400);
      expect(status('unauthorized', codes)).toBe(401);
      expect(status('itemNotFound', codes)).toBe(404);
      expect(status('duplicateId', codes)).toBe(409);
      expect(status('bodyTooLarge', codes)).toBe(413);
      expect(status('unsupportedMediaType', codes)).toBe(415);
      expect(status('schemaViolation', codes)).toBe(422);
    }
    expect(status('schemaViolation', ['200', '404', 'default'])).toBe(422);
    expect(status('schemaViolation', ['200', '5XX'])).toBe(400);
  });

  it('--auth-status (an override) still wins', () => {
    expect(statusOf(failure('unauthorized', 'x'), declaring('200', '403'), 400)).toBe(400);
  });

  it("gives a status fault the document's failure status: 400 or 422 before any other 4xx", () => {
    const failureStatus = (...codes: string[]) => declaredFailureStatus({ responses: codes.map((code) => ({ code })) } as unknown as IHttpOperation);
    expect(failureStatus('200', '400')).toBe(400);
    expect(failureStatus('200', '404', '422')).toBe(422);
    expect(failureStatus('200', '404', '409')).toBe(404);
    expect(failureStatus('200', 'default')).toBe(400);
    expect(failureStatus('200')).toBe(400);
  });
});
