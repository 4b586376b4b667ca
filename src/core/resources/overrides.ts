/**
 * What the user settles: the config file's `resources` (keyed by collection path) and the
 * document's `x-plantstore` extension (on the collection path item, or on its create operation).
 * Config wins over the extension, the extension over inference. A malformed override, or one that
 * names a path or property the document lacks, is an error naming it: a silently ignored override
 * would leave the user believing it applied.
 */
import { PlantstoreError } from '../errors.js';
import type { ResourceOverride, ResourceSource } from './model.js';

export const EXTENSION = 'x-plantstore';

const KEYS: Readonly<Record<keyof ResourceOverride, (value: unknown) => boolean>> = {
  name: (value) => typeof value === 'string' && value.length > 0,
  id: (value) => typeof value === 'string' && value.length > 0,
  assignedBy: (value) => value === 'client' || value === 'server' || value === 'either',
  stateful: (value) => typeof value === 'boolean',
  fields: (value) => isFields(value),
  envelope: (value) => value === false || (typeof value === 'string' && value.length > 0),
};

/** The `fields` rules a property may be given (model.ts ServerFieldOverride); whether they fit its schema is server-fields.ts's check. */
export const FIELD_RULES = ['created-time', 'updated-time', 'counter', 'flag', 'default', 'placeholder', 'none'] as const;

function ruleText(): string {
  return `one of ${FIELD_RULES.map((rule) => `"${rule}"`).join(', ')} or { "slugFrom": "<property>" }`;
}

function isFields(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((rule) => (FIELD_RULES as readonly unknown[]).includes(rule) || isSlugRule(rule));
}

function isSlugRule(rule: unknown): boolean {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return false;
  const keys = Object.keys(rule);
  return (
    keys.length === 1 &&
    keys[0] === 'slugFrom' &&
    typeof (rule as { slugFrom: unknown }).slugFrom === 'string' &&
    (rule as { slugFrom: string }).slugFrom.length > 0
  );
}

/** Where an override came from, for the errors that name it. */
export interface OverrideOrigin {
  readonly source: Exclude<ResourceSource, 'inferred'>;
  /** 'the config file\'s resources["/pets"]', 'x-plantstore on the path item /pets'. */
  readonly where: string;
}

export function overrideError(origin: OverrideOrigin, message: string): PlantstoreError {
  return new PlantstoreError(origin.source === 'config' ? 'config' : 'document', `${origin.where}: ${message}`);
}

/** Checks an override's keys and values; throws naming the first wrong one. */
export function checkOverride(value: unknown, origin: OverrideOrigin): ResourceOverride {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw overrideError(origin, `must be an object with any of ${Object.keys(KEYS).join(', ')}`);
  }
  for (const [key, inner] of Object.entries(value)) {
    const check = KEYS[key as keyof ResourceOverride] as ((value: unknown) => boolean) | undefined;
    if (check === undefined) throw overrideError(origin, `unknown key "${key}" (known: ${Object.keys(KEYS).join(', ')})`);
    if (key === 'fields' && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      const wrong = Object.entries(inner).find(([, rule]) => !isFields({ rule }));
      if (wrong !== undefined) throw overrideError(origin, `"fields": "${wrong[0]}" cannot be ${JSON.stringify(wrong[1])} (${ruleText()})`);
    }
    if (!check(inner)) throw overrideError(origin, `"${key}" cannot be ${JSON.stringify(inner)} (${expected(key as keyof ResourceOverride)})`);
  }
  return value as ResourceOverride;
}

function expected(key: keyof ResourceOverride): string {
  switch (key) {
    case 'assignedBy':
      return 'one of "client", "server", "either"';
    case 'stateful':
      return 'true or false';
    case 'fields':
      return `a mapping of properties to ${ruleText()}`;
    case 'envelope':
      return "the wrapping property's name, or false";
    default:
      return 'a non-empty string';
  }
}

/** The override in force for a collection path, merged key by key, with where its keys came from. */
export interface SettledOverride {
  readonly override: ResourceOverride;
  readonly source: ResourceSource;
  /** The origin to name in errors: the config's when it set anything, else the extension's. */
  readonly origin?: OverrideOrigin;
}

export function settleOverride(
  config: ResourceOverride | undefined,
  extension: ResourceOverride | undefined,
  path: string,
  extensionWhere: string,
): SettledOverride {
  if (config !== undefined) {
    return { override: { ...extension, ...config }, source: 'config', origin: { source: 'config', where: configWhere(path) } };
  }
  if (extension !== undefined) return { override: extension, source: 'extension', origin: { source: 'extension', where: extensionWhere } };
  return { override: {}, source: 'inferred' };
}

export function configWhere(path: string): string {
  return `the config file's resources["${path}"]`;
}
