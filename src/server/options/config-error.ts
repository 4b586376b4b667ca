import { PlantstoreError } from '../../core/errors.js';
import { nearest } from '../../core/options.js';

/** A config or seed file that cannot be used; the message names the file and the key at fault. */
export class ConfigError extends PlantstoreError {
  override readonly name = 'ConfigError';

  constructor(message: string) {
    super('config', message);
  }
}

/**
 * A value at a key path (e.g. `faults[1].status`) that is not what it must be. Thrown while
 * reading and turned into a ConfigError that names the file, so readers need not know it.
 */
export class KeyProblem extends PlantstoreError {
  override readonly name = 'KeyProblem';

  constructor(message: string) {
    super('configKey', message);
  }
}

/** `faults` + 1 → `faults[1]`; `` + 1 → `[1]`; `seed[0]` + `id` → `seed[0].id`; `resources` + `/pets` → `resources["/pets"]`. */
export function keyPath(at: string, key: string | number): string {
  if (typeof key === 'number') return `${at}[${key}]`;
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${at}[${JSON.stringify(key)}]`;
  return at === '' ? key : `${at}.${key}`;
}

/** A value as a person wrote it, for "must be …, not <value>". */
/** Stands for a credential's value in a refusal, which names its key and never its value. */
export const HIDDEN: unique symbol = Symbol('a credential');

export function shown(value: unknown): string {
  if (value === HIDDEN) return 'the value given (not shown: a credential)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

export function mustBe(at: string, what: string, value: unknown): KeyProblem {
  return new KeyProblem(`${at === '' ? 'the file' : at} must be ${what}, not ${shown(value)}`);
}

/** An unknown key, with the nearest known one: a typo must not be silently ignored. */
export function unknownKey(key: string, known: readonly string[], at: string): KeyProblem {
  const near = nearest(key, known);
  const where = at === '' ? '' : ` in ${at}`;
  return new KeyProblem(`unknown key "${key}"${where}${near ? `; did you mean "${near}"?` : ''} (known keys: ${known.join(', ')})`);
}
