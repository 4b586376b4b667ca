/**
 * Seed plants: `--seed-data plants.json`, or a config file's `seed` (a list, or a file's path).
 * Checked by the NewPlant schema the control API's seedPlants uses (data-schemas.ts). Ids are
 * int64, read exactly, so an id beyond 2^53 keeps its digits; a file may also write an id as a
 * string of digits, for tools that cannot write big numbers.
 */
import { INPUT_FILE_LIMITS, readInputFile } from '../../core/files/read-input-file.js';
import type { Plant } from '../../store/plant-store.js';
import { parseExactJson } from '../../core/json/exact-json.js';
import { ConfigError, keyPath, KeyProblem } from './config-error.js';
import { dataSchemas } from './data-schemas.js';
import { compileDataCheck, type DataCheck } from './schema-check.js';
import { parseInt64 } from '../../core/json/int64.js';

/** `--seed-data plants.json`: a JSON array of NewPlant ({id, name, tag?}). */
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
  return readSeedPlants(parsed.value, '', await plantsCheck());
}

/** A NewPlant as the schema accepts it: an integer id (a bigint beyond 2^53 or when written as digits). */
interface NewPlant {
  readonly id: number | bigint;
  readonly name: string;
  readonly tag?: string;
}

let compiled: Promise<DataCheck<readonly NewPlant[]>> | undefined;

/** The compiled check of a list of plants, compiled once. */
export function plantsCheck(): Promise<DataCheck<readonly NewPlant[]>> {
  compiled ??= dataSchemas().then((schemas) => compileDataCheck<readonly NewPlant[]>(schemas.plants));
  return compiled;
}

/**
 * A list of plants at key path `at`. A repeated id is refused, as it can only be a mistake in a
 * file meant to be the starting state.
 */
export function readSeedPlants(value: unknown, at: string, check: DataCheck<readonly NewPlant[]>): Plant[] {
  const exact = withDigitIds(value);
  check(exact, at);
  const plants = exact.map(toPlant);
  const firstIndexOf = new Map<bigint, number>();
  plants.forEach((plant, index) => {
    const earlier = firstIndexOf.get(plant.id);
    if (earlier !== undefined)
      throw new KeyProblem(`${keyPath(keyPath(at, index), 'id')} ${plant.id} repeats ${keyPath(keyPath(at, earlier), 'id')}; plant ids are unique`);
    firstIndexOf.set(plant.id, index);
  });
  return plants;
}

/**
 * Ids written as digits become the integers they spell, before the schema (integer ids) sees them;
 * core's one int64 text reader decides what counts ("007" does not), so a refused text stays a
 * string and the schema names it.
 */
function withDigitIds(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const { id } = item as Record<string, unknown>;
    const exact = typeof id === 'string' ? parseInt64(id) : undefined;
    return exact === undefined ? item : { ...item, id: exact };
  });
}

function toPlant({ id, name, tag }: NewPlant): Plant {
  return tag === undefined ? { id: BigInt(id), name } : { id: BigInt(id), name, tag };
}
