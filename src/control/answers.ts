import { failure, type NumberedName } from '../core/errors.js';
import { JSON_HEADERS, type Outcome } from '../handlers/outcome.js';
import type { Plant } from '../store/plant-store.js';

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

/**
 * A stored plant as JSON with its id written as digits: JSON.stringify cannot write a bigint,
 * and a Number would round ids beyond 2^53.
 */
export function storedPlantJson(plant: Plant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
}

export function idsJson(ids: readonly bigint[]): string {
  return `[${ids.join(',')}]`;
}
