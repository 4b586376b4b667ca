/**
 * The machinery of an option table: each option of a command declared once (flag, environment
 * variable, config key, type, range, default, help), and from the table the `parseArgs` options,
 * the `--help` lines, the conversion of flag and environment text, precedence and the value types.
 * `serve` (src/server/options/table.ts) and `verify` (contracts/options.ts) each declare a table.
 */
import { parseArgs } from 'node:util';

export interface OptionEntry {
  /**
   * - string / strings: text; strings is a list (a flag repeated, a config list, a comma-separated variable);
   * - integer: a whole number in [min, max]; enum: one of `values`;
   * - boolean: a flag without a value;
   * - data: structured config-file data (seed plants, faults), validated by a schema of its own.
   */
  readonly type: 'string' | 'strings' | 'boolean' | 'integer' | 'enum' | 'data';
  /** The long flag without its dashes; absent: no flag (config file only). */
  readonly flag?: string;
  readonly short?: string;
  /** The value's name in --help, e.g. `N` for `--port N`. */
  readonly argument?: string;
  /** An environment variable that sets it too (below the flag, above the config file). */
  readonly env?: string;
  /** false: the command line only (--help, --config). */
  readonly inConfig?: false;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly (string | number)[];
  /** Blank text is refused (a blank token would match nothing and look like a bug elsewhere). */
  readonly nonEmpty?: boolean;
  /** A credential: a refusal of its value never shows the value (a log must not hold a token). */
  readonly secret?: boolean;
  /** The flag turns the option off: `--no-cors` sets cors to false. */
  readonly negated?: boolean;
  /** strings: every source adds to the list instead of the first one winning. */
  readonly gathered?: boolean;
  readonly default?: string | number | boolean | readonly string[];
  /** false: the default is documented, but the consumer derives it (resolve leaves it out). */
  readonly defaultApplied?: false;
  /** Help text; `{default}` is replaced by the default. Lines after the first continue the description. */
  readonly help: string;
}

export type OptionTable = Readonly<Record<string, OptionEntry>>;

/** The value an entry resolves to. */
export type OptionValue<E extends OptionEntry> = E['type'] extends 'integer'
  ? number
  : E['type'] extends 'boolean'
    ? boolean
    : E['type'] extends 'strings'
      ? readonly string[]
      : E['type'] extends 'enum'
        ? E extends { readonly values: readonly (infer V)[] }
          ? V
          : never
        : E['type'] extends 'string'
          ? string
          : unknown;

/** Every option of a table, each optional. */
export type OptionValues<T extends OptionTable> = { readonly [K in keyof T]?: OptionValue<T[K]> };

/** The keys a config file may set. */
export type ConfigKey<T extends OptionTable> = { [K in keyof T]: T[K] extends { readonly inConfig: false } ? never : K }[keyof T] & string;

/** Raw parseArgs values: text or true, lists for repeated flags. */
export type FlagValues = Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;

/** `node:util` parseArgs options generated from the table. */
export function parseArgsOptions(table: OptionTable): Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const entry of Object.values(table)) {
    if (entry.flag === undefined) continue;
    options[entry.flag] = {
      type: entry.type === 'boolean' ? 'boolean' : 'string',
      ...(entry.type === 'strings' ? { multiple: true } : {}),
      ...(entry.short !== undefined ? { short: entry.short } : {}),
    };
  }
  return options;
}

/** Reads `argv` against the table (unknown flags and missing values are parseArgs' TypeErrors; a typo gets the nearest flag). */
export function readFlags(table: OptionTable, argv: readonly string[], allowPositionals = false): { values: FlagValues; positionals: string[] } {
  const options = parseArgsOptions(table);
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals, options });
  } catch (error) {
    const unknown = error instanceof TypeError ? /^Unknown option '--([^']+)'/.exec(error.message)?.[1] : undefined;
    const near = unknown === undefined ? undefined : nearest(unknown, Object.keys(options));
    if (near === undefined) throw error;
    throw new TypeError(`Unknown option '--${unknown}'; did you mean '--${near}'?`);
  }
}

/** The candidate within two edits of `word` (case aside), for "did you mean". */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  return candidates.find((candidate) => editDistance(candidate.toLowerCase(), word.toLowerCase()) <= 2);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The "Options:" lines of --help: the flag column padded to `width`, continuation lines indented to match. */
export function renderOptionsHelp(table: OptionTable, width: number): string {
  const lines: string[] = [];
  for (const entry of Object.values(table)) {
    if (entry.flag === undefined) continue;
    const short = entry.short !== undefined ? `-${entry.short}, ` : '';
    const name = `  ${short}--${entry.flag}${entry.argument !== undefined ? ` ${entry.argument}` : ''}`;
    const [first = '', ...rest] = entry.help.replaceAll('{default}', String(entry.default)).split('\n');
    lines.push(`${name.padEnd(width)} ${first}`.trimEnd(), ...rest.map((line) => `${''.padEnd(width)} ${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** What a value of this entry must be, for "… must be <this>, not …". */
export function describeEntry(entry: OptionEntry): string {
  switch (entry.type) {
    case 'integer':
      return describeWhole(entry.min, entry.max);
    case 'boolean':
      return 'true or false';
    case 'enum': {
      const values = entry.values ?? [];
      return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
    }
    case 'strings':
    case 'string':
      return entry.nonEmpty ? 'a non-empty string' : 'a string';
    default:
      return 'valid';
  }
}

export function describeWhole(min?: number, max?: number): string {
  if (max === undefined) return min === undefined ? 'a whole number' : `a whole number of at least ${min}`;
  return `a whole number from ${min ?? Number.MIN_SAFE_INTEGER} to ${max}`;
}

/** Decimal digits only (no "0x10", "1e3" or ""), within [min, max]; undefined otherwise. */
export function parseWhole(text: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}

/** How a refusal is worded and raised: `${label} ${verb} ${what}, not "${text}"`. */
export interface Refusal {
  readonly verb?: string;
  fail(message: string): never;
}

/** A flag's or variable's text as the entry's value; refuses (naming `label`) what does not fit. */
export function fromText(entry: OptionEntry, label: string, text: string, refusal: Refusal): unknown {
  const refuse = (): never => refusal.fail(`${label} ${refusal.verb ?? 'must be'} ${describeEntry(entry)}, not ${JSON.stringify(text)}`);
  switch (entry.type) {
    case 'integer':
      return parseWhole(text, entry.min, entry.max) ?? refuse();
    case 'boolean':
      if (text === '1' || text.toLowerCase() === 'true') return true;
      if (text === '0' || text.toLowerCase() === 'false') return false;
      return refuse();
    case 'enum':
      return entry.values?.find((value) => String(value) === text) ?? refuse();
    default:
      if (entry.nonEmpty && text.trim() === '') refuse();
      return text;
  }
}

/** Where each option may come from; config values have been checked against the table's schema. */
export interface OptionSources {
  readonly flags: FlagValues;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Precedence, once for every option: flag > environment > config file > default. A gathered list
 * takes every source, in that order. An empty environment variable counts as unset.
 */
export function resolveOptions<T extends OptionTable>(table: T, sources: OptionSources, refusal: Refusal): OptionValues<T> {
  const resolved: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (entry.type === 'data') {
      if (sources.config?.[key] !== undefined) resolved[key] = sources.config[key];
      continue;
    }
    const candidates = [fromFlag(entry, sources.flags, refusal), fromEnv(entry, sources.env, refusal), sources.config?.[key]];
    const value = entry.gathered ? gather(candidates) : candidates.find((candidate) => candidate !== undefined);
    if (value !== undefined) resolved[key] = value;
    else if (entry.default !== undefined && entry.defaultApplied !== false) resolved[key] = entry.default;
  }
  // Built entry by entry from the table the type is derived from.
  return resolved as OptionValues<T>;
}

function fromFlag(entry: OptionEntry, flags: FlagValues, refusal: Refusal): unknown {
  if (entry.flag === undefined) return undefined;
  const raw = flags[entry.flag];
  if (raw === undefined) return undefined;
  const label = `--${entry.flag}`;
  if (entry.type === 'boolean') return raw === true ? !entry.negated : undefined;
  if (Array.isArray(raw)) return raw.map((text) => fromText(entry, label, String(text), refusal));
  return fromText(entry, label, String(raw), refusal);
}

function fromEnv(entry: OptionEntry, env: OptionSources['env'], refusal: Refusal): unknown {
  const text = entry.env === undefined ? undefined : env?.[entry.env];
  if (entry.env === undefined || text === undefined || text === '') return undefined;
  // A list variable is comma-separated; blanks between commas are dropped.
  if (entry.type === 'strings')
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return fromText(entry, entry.env, text, refusal);
}

function gather(candidates: readonly unknown[]): readonly unknown[] | undefined {
  const all = candidates.flatMap((candidate) => (Array.isArray(candidate) ? candidate : []));
  return all.length > 0 ? all : undefined;
}
