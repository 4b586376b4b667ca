import { failure, RETRY_SOON, storageFailure, type NumberedName } from '../core/errors.js';
import { JSON_HEADERS, type Outcome } from '../http/answer.js';

/** JSON text already written (ids exactly), answered with `status`. */
export function json(status: number, body: string): Outcome {
  return { ok: true, answer: { status, headers: JSON_HEADERS, body } };
}

export function noContent(): Outcome {
  return { ok: true, answer: { status: 204, headers: {}, body: '' } };
}

export function refused(entry: NumberedName, message: string, headers?: Readonly<Record<string, string>>): Outcome {
  return { ok: false, failure: failure(entry, message, headers) };
}

/**
 * Brings a view shared by replicas (faults, journal; serve --store redis://…) up to date before it
 * is read or answered; the store's 503 when it cannot be. Nothing to do for a view of one process.
 */
export async function caughtUp(synced: (() => Promise<void>) | undefined): Promise<Outcome | undefined> {
  if (synced === undefined) return undefined;
  try {
    await synced();
    return undefined;
  } catch (error) {
    return refused('storageFailed', `the shared store could not be read or written: ${error instanceof Error ? error.message : String(error)}`, RETRY_SOON);
  }
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
