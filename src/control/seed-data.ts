import { INPUT_FILE_LIMITS, readInputFile } from '../core/files/read-input-file.js';
import type { Plant } from '../store/plant-store.js';
import { parseExactJson } from '../core/json/exact-json.js';
import { INT64_MAX, INT64_MIN, isInt64, parseInt64 } from '../core/json/int64.js';
import { checkKeys, ConfigError, isMapping, keyPath, KeyProblem, mustBe } from './config-error.js';

const PLANT_KEYS = ['id', 'name', 'tag'] as const;

/**
 * `--seed-data plants.json`: a JSON array of NewPlant ({id, name, tag?}). Read exactly, so an id
 * beyond 2^53 keeps its digits; an id may also be written as a string of digits.
 */
export async function loadSeedData(path: string): Promise<Plant[]> {
  try {
    return await readSeedFile(path, 'the seed file (--seed-data)');
  } catch (error) {
    if (error instanceof KeyProblem) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}

/** The seed file's plants; throws KeyProblem (message without the file) when it cannot be used. */
export async function readSeedFile(path: string, what = 'the seed file'): Promise<Plant[]> {
  let text: string;
  try {
    text = await readInputFile(path, INPUT_FILE_LIMITS.seed);
  } catch (error) {
    throw new KeyProblem(`cannot read ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseExactJson(text);
  if (!parsed.ok) throw new KeyProblem(parsed.reason.replace(/^the body/, 'the seed file'));
  return readSeedPlants(parsed.value, '');
}

/**
 * A list of plants at key path `at`. Ids are int64: a whole number (exact when parsed with
 * bigints), or its decimal digits in a string for tools that cannot write big numbers. A repeated
 * id is refused, as it can only be a mistake in a file meant to be the starting state.
 */
export function readSeedPlants(value: unknown, at: string): Plant[] {
  if (!Array.isArray(value)) throw mustBe(at, 'a list of plants ({id, name, tag?})', value);
  const firstIndexOf = new Map<bigint, number>();
  return value.map((item: unknown, index) => {
    const plant = readPlant(item, keyPath(at, index));
    const earlier = firstIndexOf.get(plant.id);
    if (earlier !== undefined) throw new KeyProblem(`${keyPath(keyPath(at, index), 'id')} ${plant.id} repeats ${keyPath(keyPath(at, earlier), 'id')}; plant ids are unique`);
    firstIndexOf.set(plant.id, index);
    return plant;
  });
}

function readPlant(value: unknown, at: string): Plant {
  if (!isMapping(value)) throw mustBe(at, 'a plant ({id, name, tag?})', value);
  checkKeys(value, PLANT_KEYS, at);
  const id = readInt64(value.id, keyPath(at, 'id'));
  const { name, tag } = value;
  if (typeof name !== 'string') throw mustBe(keyPath(at, 'name'), 'a string', name);
  if (tag !== undefined && typeof tag !== 'string') throw mustBe(keyPath(at, 'tag'), 'a string', tag);
  return tag === undefined ? { id, name } : { id, name, tag };
}

function readInt64(value: unknown, at: string): bigint {
  const id =
    typeof value === 'bigint' ? value
    : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value)
    : typeof value === 'string' ? parseInt64(value)
    : undefined;
  if (id === undefined || !isInt64(id)) {
    throw mustBe(at, `an int64 (a whole number from ${INT64_MIN} to ${INT64_MAX}, or its digits as a string)`, value);
  }
  return id;
}
