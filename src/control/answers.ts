import { failure, storageFailure, type NumberedName } from '../core/errors.js';
import { JSON_HEADERS, type Outcome } from '../handlers/outcome.js';

/** JSON text already written (ids exactly), answered with `status`. */
export function json(status: number, body: string): Outcome {
  return { ok: true, answer: { status, headers: JSON_HEADERS, body } };
}

export function noContent(): Outcome {
  return { ok: true, answer: { status: 204, headers: {}, body: '' } };
}

export function refused(entry: NumberedName, message: string): Outcome {
  return { ok: false, failure: failure(entry, message) };
}

export function notFound(message: string): Outcome {
  return refused('notFound', message);
}

/** A change the store could not make durable (--data-dir), or a tenant it could not load: the store's 503, as createPlant answers it. */
export async function durably<T>(change: Promise<T>): Promise<{ ok: true; value: T | undefined } | { ok: false; refusal: Outcome }> {
  try {
    return { ok: true, value: await change };
  } catch (error) {
    return { ok: false, refusal: { ok: false, failure: storageFailure('the change could not be stored durably, so it was not made', error) } };
  }
}
