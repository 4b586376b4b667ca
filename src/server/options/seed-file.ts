/**
 * Seed data: `--seed-data seed.json`, or a config file's `seed` (a list, a mapping, or a file's path).
 * Either a list of plants (the first format), or a mapping from resource name to a list of its
 * items: {"plants": […], "pets": […]}. Plants are checked here by the NewPlant schema the control
 * API's seedPlants uses (data-schemas.ts); the items of other resources are checked when the
 * server starts, by their resource's schema (the document is not known before). Ids are read
 * exactly, so an id beyond 2^53 keeps its digits; a file may also write an integer id as a string
 * of digits, for tools that cannot write big numbers.
 */
import { INPUT_FILE_LIMITS, readInputFile } from '../../core/files/read-input-file.js';
import type { Plant } from '../../store/plant-store.js';
import { readRequestJson, type JsonValue } from '../../core/json/exact-json.js';
import { ConfigError, keyPath, KeyProblem, shown } from './config-error.js';
import { dataSchemas } from './data-schemas.js';
import { compileDataCheck, type DataCheck } from './schema-check.js';
import { narrow, parseInt64 } from '../../core/json/int64.js';

/** What a seed holds: plants, and the items of other resources by resource name (checked at start). */
export interface SeedData {
  readonly plants: readonly Plant[];
  readonly items: Readonly<Record<string, readonly JsonValue[]>>;
}

/** `--seed-data seed.json`: a JSON array of NewPlant ({id, name, tag?}), or a mapping of resource name to items. */
export async function loadSeedData(path: string): Promise<SeedData> {
  try {
    return await readSeedFile(path, 'the seed file (--seed-data)');
  } catch (error) {
    if (error instanceof KeyProblem) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}

/** The seed file's data; throws KeyProblem (message without the file) when it cannot be used. */
export async function readSeedFile(path: string, what = 'the seed file'): Promise<SeedData> {
  let text: string;
  try {
    text = await readInputFile(path, INPUT_FILE_LIMITS.seed);
  } catch (error) {
    throw new KeyProblem(`cannot read ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = readRequestJson(text);
  if (!parsed.ok) throw new KeyProblem(parsed.reason.replace(/^the body/, 'the seed file'));
  return readSeed(parsed.value, '', await plantsCheck());
}

/**
 * A seed at key path `at`: a list of plants, or a mapping of resource names to lists of items
 * (its `plants` read as the list would be). Integers come as bigints from YAML: a number where one
 * holds them exactly.
 */
export function readSeed(value: unknown, at: string, check: DataCheck<readonly NewPlant[]>): SeedData {
  if (Array.isArray(value)) return { plants: readSeedPlants(value, at, check), items: {} };
  if (typeof value !== 'object' || value === null) check(value, at);
  const items: Record<string, readonly JsonValue[]> = {};
  let plants: Plant[] = [];
  for (const [name, list] of Object.entries(value as Record<string, unknown>)) {
    const where = keyPath(at, name);
    if (name === 'plants') plants = readSeedPlants(list, where, check);
    else if (!Array.isArray(list)) throw new KeyProblem(`${where} must be a list of the ${name} items, not ${shown(list)}`);
    else items[name] = list.map((item) => exactJson(item));
  }
  return { plants, items };
}

/** A parsed value as exact JSON: a bigint within 2^53 becomes the number it is (YAML gives bigints for every integer). */
function exactJson(value: unknown): JsonValue {
  if (typeof value === 'bigint') return narrow(value);
  if (Array.isArray(value)) return value.map(exactJson);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exactJson(inner)]));
  return value as JsonValue;
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
