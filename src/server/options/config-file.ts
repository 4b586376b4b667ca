/**
 * `plantstore serve --config plantstore.yaml`: YAML or JSON (YAML is a superset of JSON) in the
 * server's option names, checked by a JSON Schema generated from the option table, with the
 * control API's own FaultSpec and NewPlant schemas for `faults` and `seed`. Every error is a
 * ConfigError naming the file and the key path, e.g.
 * `plantstore.yaml: faults[1].status must be a whole number from 200 to 599, not 700`.
 */
import { dirname, resolve } from 'node:path';
import type { ConfigKey, OptionEntry, OptionValues } from '../../core/options.js';
import { INPUT_FILE_LIMITS, readInputFile } from '../../core/files/read-input-file.js';
import { parseYaml } from '../../core/openapi/yaml.js';
import { checkFaultSpec, FaultError, type FaultSpec } from '../../faults/faults.js';
import type { Plant } from '../../store/plant-store.js';
import type { ResourceOverride } from '../../core/resources/model.js';
import { ConfigError, keyPath, KeyProblem } from './config-error.js';
import { dataSchemas, type DataSchemas } from './data-schemas.js';
import { compileDataCheck, MUST_BE, SECRET, type DataCheck, type JsonSchema } from './schema-check.js';
import { plantsCheck, readSeed, readSeedFile, type SeedData } from './seed-file.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import { SERVE_OPTIONS } from './table.js';

export { ConfigError } from './config-error.js';

type ConfigEntries = Pick<typeof SERVE_OPTIONS, ConfigKey<typeof SERVE_OPTIONS>>;

/**
 * A config file as plain data in the server's option names. Every field is optional (absent: the
 * flag or the default applies); paths are absolute, resolved against the config file's folder.
 */
export type ServeConfig = Omit<OptionValues<ConfigEntries>, 'seed' | 'faults' | 'resources'> & {
  readonly seed?: readonly Plant[];
  /** Items of resources other than plants, by resource name: checked when the server starts. */
  readonly seedItems?: Readonly<Record<string, readonly JsonValue[]>>;
  readonly faults?: readonly FaultSpec[];
  /** Keyed by collection path; whether each path is in the document is checked when the server infers its resources. */
  readonly resources?: Readonly<Record<string, ResourceOverride>>;
  /** The seed file the config names (`seed: seed.json`), absolute: serve --watch watches it too. */
  readonly seedFile?: string;
};

/** The config keys, in the table's order. */
export const CONFIG_KEYS = (Object.keys(SERVE_OPTIONS) as (keyof typeof SERVE_OPTIONS)[]).filter(
  (key): key is ConfigKey<typeof SERVE_OPTIONS> => !('inConfig' in SERVE_OPTIONS[key]),
);

/** The JSON Schema of a config file, generated from the option table. */
export function configSchema(schemas: DataSchemas): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const key of CONFIG_KEYS) properties[key] = entrySchema(SERVE_OPTIONS[key]);
  // A seed is a list of plants, a mapping of resource names to items, or the path of a JSON file of either.
  properties.seed = { ...schemas.plants, type: ['string', 'array', 'object'] };
  properties.faults = { type: 'array', items: schemas.fault };
  properties.resources = schemas.resources;
  return { type: 'object', additionalProperties: false, properties, [MUST_BE]: 'a mapping of settings (e.g. "port: 4010")' };
}

function entrySchema(entry: OptionEntry): JsonSchema {
  const schema = valueSchema(entry);
  return entry.secret ? { ...schema, [SECRET]: true } : schema;
}

function valueSchema(entry: OptionEntry): JsonSchema {
  const text: JsonSchema = entry.nonEmpty ? { type: 'string', pattern: '\\S' } : { type: 'string' };
  switch (entry.type) {
    case 'integer':
      return { type: 'integer', minimum: entry.min, maximum: entry.max };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { enum: entry.values };
    case 'strings':
      return { type: 'array', items: text };
    default:
      return text;
  }
}

/** A config file as the schema accepts it: seed plants are checked apart (readSeedPlants), a seed file's path is kept. */
type ConfigFile = Omit<ServeConfig, 'seed'> & { readonly seed?: string };

let compiled: Promise<DataCheck<ConfigFile>> | undefined;

function configCheck(): Promise<DataCheck<ConfigFile>> {
  compiled ??= dataSchemas().then((schemas) => compileDataCheck<ConfigFile>(configSchema(schemas)));
  return compiled;
}

export async function loadConfig(path: string): Promise<ServeConfig> {
  let text: string;
  try {
    text = await readInputFile(path, INPUT_FILE_LIMITS.config);
  } catch (error) {
    throw new ConfigError(`${path}: cannot read the config file (--config): ${messageOf(error)}`);
  }
  let raw: unknown;
  try {
    // Integers as bigints, so a seed id beyond 2^53 written as a number keeps its digits.
    raw = parseYaml(text, { intAsBigInt: true });
  } catch (error) {
    throw new ConfigError(`${path}: not valid YAML or JSON: ${messageOf(error)}`);
  }
  try {
    return await readConfig(raw ?? {}, dirname(resolve(path)));
  } catch (error) {
    if (error instanceof KeyProblem) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}

async function readConfig(raw: unknown, folder: string): Promise<ServeConfig> {
  const check: DataCheck<ConfigFile> = await configCheck();
  // A list of seed plants is read by readSeedPlants (exact ids, digit ids); a path is read below.
  const seedList: unknown = isMapping(raw) && (Array.isArray(raw.seed) || isMapping(raw.seed)) ? raw.seed : undefined;
  // Whole numbers as numbers: the schema bounds every one (a seed id, which may pass 2^53, is read apart).
  const settings = numbersOf(seedList === undefined || !isMapping(raw) ? raw : withoutSeed(raw));
  check(settings, '');
  const { seed, faults, spec, dataDir, ...options } = settings;
  for (const path of Object.keys(options.resources ?? {})) {
    if (!path.startsWith('/')) throw new KeyProblem(`${keyPath('resources', path)} must be a collection path, starting with "/" (e.g. "/pets")`);
  }
  return {
    ...options,
    ...(spec !== undefined ? { spec: resolve(folder, spec) } : {}),
    ...(dataDir !== undefined ? { dataDir: resolve(folder, dataDir) } : {}),
    ...(faults !== undefined ? { faults: faults.map((fault, index) => checkedFault(fault, keyPath('faults', index))) } : {}),
    ...(seedList !== undefined ? seedOptions(readSeed(seedList, 'seed', await plantsCheck())) : {}),
    ...(seed !== undefined ? { ...seedOptions(await readSeedFileAt(seed, folder)), seedFile: resolve(folder, seed) } : {}),
  };
}

/** A seed file named by the config, relative to its folder; its problems name it. */
/** Seed data as the server's options hold it. */
export function seedOptions({ plants, items }: SeedData): Pick<ServeConfig, 'seed' | 'seedItems'> {
  return { seed: plants, ...(Object.keys(items).length > 0 ? { seedItems: items } : {}) };
}

async function readSeedFileAt(value: string, folder: string): Promise<SeedData> {
  try {
    return await readSeedFile(resolve(folder, value));
  } catch (error) {
    if (error instanceof KeyProblem) throw new KeyProblem(`seed file ${value}: ${error.message}`);
    throw error;
  }
}

/** The schema checked each field; faults.add's check says how they fit together (a status fault needs a status…). */
function checkedFault(spec: FaultSpec, at: string): FaultSpec {
  try {
    checkFaultSpec(spec);
  } catch (error) {
    if (!(error instanceof FaultError)) throw error;
    // "latencyMaxMs must …" names its field: put it on the key path; other messages follow the fault's.
    const field = Object.keys(spec).find((key) => error.message.startsWith(`${key} `));
    throw new KeyProblem(field ? `${keyPath(at, field)}${error.message.slice(field.length)}` : `${at}: ${error.message}`);
  }
  return spec;
}

/** Every bigint the YAML parser made becomes a number. */
function numbersOf(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(numbersOf);
  if (!isMapping(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, numbersOf(child)]));
}

function withoutSeed({ seed: _seed, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return rest;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
