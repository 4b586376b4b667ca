import { dirname, resolve } from 'node:path';
import { parseYaml } from '../core/openapi/yaml.js';
import { checkFaultSpec, FAULT_KINDS, FaultError, type FaultSpec } from '../faults/faults.js';
import { INPUT_FILE_LIMITS, readInputFile } from '../core/files/read-input-file.js';
import { LOG_LEVELS, type LogLevel } from '../log/logger.js';
import type { Plant } from '../store/plant-store.js';
import type { ServerOptions } from '../http/server.js';
import { checkKeys, ConfigError, isMapping, keyPath, KeyProblem, mustBe } from './config-error.js';
import { readSeedFile, readSeedPlants } from './seed-data.js';

export { ConfigError } from './config-error.js';

/**
 * `plantstore serve --config plantstore.yaml`, as plain data in the server's option names.
 * Every field is optional (absent: the CLI flag or the default applies); paths are absolute,
 * resolved against the config file's folder.
 */
export type ServeConfig = Omit<ServerOptions, 'spec' | 'log'> & {
  /** A path: a file cannot hold a parsed document. */
  readonly spec?: string;
};

/** The ranges the serve flags accept, so a config file and the command line agree. */
export const CONFIG_LIMITS = {
  port: [0, 65_535],
  bodyLimitBytes: [1, 2 ** 31],
  bodyBufferBytes: [1, 2 ** 40],
  requestTimeoutMs: [100, 3_600_000],
  journalSize: [0, 1_000_000],
  journalBytes: [0, 2 ** 40],
  maxTenants: [1, 10_000_000],
} as const;

const CONFIG_KEYS: readonly (keyof ServeConfig)[] = [
  'spec', 'port', 'host', 'tokens', 'adminToken', 'allowedHosts', 'authStatus', 'echoId', 'cors', 'bodyLimitBytes', 'bodyBufferBytes',
  'requestTimeoutMs', 'logLevel', 'isolateByToken', 'dataDir', 'maxTenants', 'journalSize', 'journalBytes', 'seed', 'faults',
];

const FAULT_KEYS: readonly (keyof FaultSpec)[] = ['kind', 'operation', 'times', 'percentage', 'latencyMs', 'latencyMaxMs', 'status', 'error', 'message', 'bodyDurationMs'];
const FAULT_NUMBERS = ['times', 'percentage', 'latencyMs', 'latencyMaxMs', 'status', 'error', 'bodyDurationMs'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reads a YAML or JSON config file (YAML is a superset of JSON). Unknown keys are refused; every
 * error is a ConfigError naming the file and the key path, e.g.
 * `plantstore.yaml: faults[1].status must be a whole number from 200 to 599, not 700`.
 */
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
  const folder = dirname(resolve(path));
  try {
    return await readConfig(raw ?? {}, folder);
  } catch (error) {
    if (error instanceof KeyProblem) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}

async function readConfig(raw: unknown, folder: string): Promise<ServeConfig> {
  if (!isMapping(raw)) throw mustBe('', 'a mapping of settings (e.g. "port: 4010")', raw);
  checkKeys(raw, CONFIG_KEYS, '');
  const config: Mutable<ServeConfig> = {};
  const at = (key: keyof ServeConfig) => raw[key];
  if (at('spec') !== undefined) config.spec = resolve(folder, text(at('spec'), 'spec'));
  if (at('port') !== undefined) config.port = whole(at('port'), 'port', ...CONFIG_LIMITS.port);
  if (at('host') !== undefined) config.host = text(at('host'), 'host');
  if (at('tokens') !== undefined) config.tokens = list(at('tokens'), 'tokens').map((token, index) => text(token, keyPath('tokens', index)));
  if (at('adminToken') !== undefined) config.adminToken = text(at('adminToken'), 'adminToken');
  if (at('allowedHosts') !== undefined) config.allowedHosts = list(at('allowedHosts'), 'allowedHosts').map((host, index) => text(host, keyPath('allowedHosts', index)));
  if (at('authStatus') !== undefined) config.authStatus = authStatus(at('authStatus'));
  if (at('echoId') !== undefined) config.echoId = flag(at('echoId'), 'echoId');
  if (at('cors') !== undefined) config.cors = flag(at('cors'), 'cors');
  if (at('bodyLimitBytes') !== undefined) config.bodyLimitBytes = whole(at('bodyLimitBytes'), 'bodyLimitBytes', ...CONFIG_LIMITS.bodyLimitBytes);
  if (at('bodyBufferBytes') !== undefined) config.bodyBufferBytes = whole(at('bodyBufferBytes'), 'bodyBufferBytes', ...CONFIG_LIMITS.bodyBufferBytes);
  if (at('requestTimeoutMs') !== undefined) config.requestTimeoutMs = whole(at('requestTimeoutMs'), 'requestTimeoutMs', ...CONFIG_LIMITS.requestTimeoutMs);
  if (at('logLevel') !== undefined) config.logLevel = logLevel(at('logLevel'));
  if (at('isolateByToken') !== undefined) config.isolateByToken = flag(at('isolateByToken'), 'isolateByToken');
  if (at('dataDir') !== undefined) config.dataDir = resolve(folder, text(at('dataDir'), 'dataDir'));
  if (at('maxTenants') !== undefined) config.maxTenants = whole(at('maxTenants'), 'maxTenants', ...CONFIG_LIMITS.maxTenants);
  if (at('journalSize') !== undefined) config.journalSize = whole(at('journalSize'), 'journalSize', ...CONFIG_LIMITS.journalSize);
  if (at('journalBytes') !== undefined) config.journalBytes = whole(at('journalBytes'), 'journalBytes', ...CONFIG_LIMITS.journalBytes);
  if (at('faults') !== undefined) config.faults = list(at('faults'), 'faults').map((fault, index) => readFault(fault, keyPath('faults', index)));
  if (at('seed') !== undefined) config.seed = await readSeed(at('seed'), folder);
  return config;
}

/** The seed: plants written in place, or the path of a JSON file of them. */
async function readSeed(value: unknown, folder: string): Promise<Plant[]> {
  if (typeof value !== 'string') return readSeedPlants(value, 'seed');
  try {
    return await readSeedFile(resolve(folder, value));
  } catch (error) {
    if (error instanceof KeyProblem) throw new KeyProblem(`seed file ${value}: ${error.message}`);
    throw error;
  }
}

function readFault(value: unknown, at: string): FaultSpec {
  if (!isMapping(value)) throw mustBe(at, 'a fault (e.g. {kind: status, status: 503})', value);
  checkKeys(value, FAULT_KEYS, at);
  const kind = value.kind;
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) throw mustBe(keyPath(at, 'kind'), `one of ${FAULT_KINDS.join(', ')}`, kind);
  const spec: Record<string, unknown> = { kind };
  for (const key of ['operation', 'message'] as const) {
    if (value[key] !== undefined) spec[key] = text(value[key], keyPath(at, key), key === 'message');
  }
  for (const key of FAULT_NUMBERS) {
    const number = value[key];
    if (number === undefined) continue;
    const exact = typeof number === 'bigint' && Number.isSafeInteger(Number(number)) ? Number(number) : number;
    if (typeof exact !== 'number' || !Number.isFinite(exact)) throw mustBe(keyPath(at, key), 'a number', number);
    spec[key] = exact;
  }
  // checkFaultSpec checks only a status fault's status; a status given to another kind is checked here.
  if (spec.status !== undefined) whole(spec.status, keyPath(at, 'status'), 200, 599);
  try {
    checkFaultSpec(spec as unknown as FaultSpec);
  } catch (error) {
    if (!(error instanceof FaultError)) throw error;
    // "times must be …" names its field: put it on the key path; other messages follow the fault's.
    const field = FAULT_KEYS.find((key) => error.message.startsWith(`${key} `));
    throw new KeyProblem(field ? `${keyPath(at, field)}${error.message.slice(field.length)}` : `${at}: ${error.message}`);
  }
  return spec as unknown as FaultSpec;
}

function text(value: unknown, at: string, emptyAllowed = false): string {
  // YAML reads an unquoted 12345 or true as a number or boolean; a token like that must be quoted.
  if (typeof value !== 'string') throw mustBe(at, `a string${typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' ? ' (quote it)' : ''}`, value);
  if (!emptyAllowed && value.trim() === '') throw mustBe(at, 'a non-empty string', value);
  return value;
}

function whole(value: unknown, at: string, min: number, max: number): number {
  const number = typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) throw mustBe(at, `a whole number from ${min} to ${max}`, value);
  return number;
}

function flag(value: unknown, at: string): boolean {
  if (typeof value !== 'boolean') throw mustBe(at, 'true or false', value);
  return value;
}

function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw mustBe(at, 'a list', value);
  return value;
}

function authStatus(value: unknown): 400 | 401 {
  const status = typeof value === 'bigint' ? Number(value) : value;
  if (status !== 400 && status !== 401) throw mustBe('authStatus', '400 or 401', value);
  return status;
}

function logLevel(value: unknown): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === value);
  if (level === undefined) throw mustBe('logLevel', `one of ${LOG_LEVELS.join(', ')}`, value);
  return level;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
