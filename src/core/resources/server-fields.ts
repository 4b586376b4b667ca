/**
 * The server-made fields of a resource: the properties its items answer that no client sends
 * (readOnly, or declared by the answer and absent from the create body), and how the stand-in
 * makes each, read from the document's own signals: a `slug` from the item's title or name;
 * creation and change times (`createdAt`, `updated_at`, `dateCreated`, … as date-time, date or plain
 * strings); counters (`favoritesCount`, `comments_count` → 0); flags (booleans → false); else what
 * the schema states (const, enum, default, example) or a placeholder of its type. A pure function
 * of the schemas, the identifier and the override: `serve` applies the plan, `verify` reads the same.
 * docs/resources.md, "Server-made fields".
 */
import type { Identifier, ServerField, ServerFieldKind, ServerFieldOverride } from './model.js';
import { overrideError, type OverrideOrigin } from './overrides.js';
import { admitsSlugs } from './slug.js';
import { normalise, type Schema } from '../schema/normalise.js';
import { objectShape } from '../schema/properties.js';
import { formatOf, typeOf } from '../schema/types.js';

export interface PlanInput {
  /** The collection path, for errors. */
  readonly path: string;
  /** The create body's schema; absent when there is no create (only readOnly properties are server-made then). */
  readonly createSchema?: unknown;
  /** The schemas an item is answered by (read's, create's): their properties are the candidates. */
  readonly answers: readonly unknown[];
  readonly identifier: Identifier;
  readonly override?: Readonly<Record<string, ServerFieldOverride>> | undefined;
  readonly origin?: OverrideOrigin | undefined;
}

/** Source properties of a slug, by preference; then any string property whose name ends in Title or Name. */
const SLUG_SOURCES = ['title', 'name', 'headline', 'subject', 'label', 'displayname', 'username', 'fullname'];
const SLUG_NAME = /^slug$|[_-]slug$|[a-z0-9]Slug$/;
/** Names compared lower-case without `_` and `-`: created_at, createdAt and CreatedAt alike. */
const CREATED = /^(?:(?:created|creation|inserted|added)(?:at|on|date|time|timestamp)?|date(?:created|added|inserted))$/;
const UPDATED = /^(?:(?:updated|modified|lastmodified|lastupdated|changed|edited)(?:at|on|date|time|timestamp)?|date(?:updated|modified|changed))$/;
const COUNTER = /[cC]ount$|^num[A-Z_]|^numberOf[A-Z]/;
const TIME_FORMATS = new Set(['date-time', 'date']);

export function planServerFields(input: PlanInput): ServerField[] {
  const answered = answerProperties(input.answers);
  const create = input.createSchema === undefined ? undefined : objectShape(input.createSchema, { direction: 'request' });
  const createReadOnly = input.createSchema === undefined ? new Set<string>() : objectShape(input.createSchema).readOnly;
  const sent = (name: string) => create !== undefined && create.properties.has(name);
  const plan: ServerField[] = [];
  for (const [name, { schema, required, readOnly }] of answered) {
    if (input.override?.[name] !== undefined) continue;
    if (name === input.identifier.property && input.identifier.assignedBy !== 'server') continue;
    // Response-only: the create body declares it not (a create body declaring no properties is open: it may send anything).
    const serverMade = readOnly || createReadOnly.has(name) || (create !== undefined && !create.open && !sent(name));
    if (!serverMade) continue;
    const field = inferred(name, schema, required, create?.properties);
    // A server-assigned identifier is allocated (integers, uuids) unless it is a slug made from the item's text.
    if (name === input.identifier.property && field?.kind !== 'slug') continue;
    if (field !== undefined) plan.push(field);
  }
  for (const [name, rule] of Object.entries(input.override ?? {})) {
    const field = settled(name, rule, answered, create?.properties, input);
    if (field !== undefined) plan.push(field);
  }
  return plan;
}

interface Answered {
  readonly schema: Schema;
  readonly required: boolean;
  readonly readOnly: boolean;
}

/** The properties any answer declares (the first answer's schema for each), writeOnly ones aside. */
function answerProperties(answers: readonly unknown[]): Map<string, Answered> {
  const properties = new Map<string, Answered>();
  for (const answer of answers) {
    if (answer === undefined) continue;
    const shape = objectShape(answer, { direction: 'response' });
    for (const [name, schema] of shape.properties) {
      const known = properties.get(name);
      properties.set(name, {
        schema: known?.schema ?? schema,
        required: (known?.required ?? false) || shape.required.has(name),
        readOnly: (known?.readOnly ?? false) || shape.readOnly.has(name),
      });
    }
  }
  return properties;
}

/** The rule the property's own signals give; undefined when it is optional and nothing says the server sets it. */
function inferred(name: string, schema: Schema, required: boolean, create: ReadonlyMap<string, Schema> | undefined): ServerField | undefined {
  const type = typeOf(schema);
  const format = formatOf(schema);
  const plain = name.toLowerCase().replace(/[_-]/g, '');
  if (type === 'string' && SLUG_NAME.test(name) && (format === undefined || format === 'slug')) {
    const from = slugSource(create);
    if (from === undefined) return fallback(name, schema, required, 'no title or name in the create body to make a slug from');
    if (!admitsSlugs(schema)) return fallback(name, schema, required, 'its pattern or length does not admit slugs (lower-case words and hyphens)');
    return { property: name, kind: 'slug', from };
  }
  if (type === 'string' && (format === undefined || TIME_FORMATS.has(format))) {
    if (UPDATED.test(plain)) return { property: name, kind: 'updated-time' };
    if (CREATED.test(plain)) return { property: name, kind: 'created-time' };
  }
  if ((type === 'integer' || type === 'number') && COUNTER.test(name)) {
    return admits(schema, 0) ? { property: name, kind: 'counter' } : fallback(name, schema, required, 'its bounds do not admit 0');
  }
  if (type === 'boolean' && !stated(schema)) return { property: name, kind: 'flag' };
  return fallback(name, schema, required);
}

/** What the schema states, else (required) a placeholder of its type; an optional property without a default is not made up. */
function fallback(name: string, schema: Schema, required: boolean, note?: string): ServerField | undefined {
  const withNote = note === undefined ? {} : { note };
  if (stated(schema) && (required || schema.default !== undefined || schema.const !== undefined)) return { property: name, kind: 'default', ...withNote };
  return required ? { property: name, kind: 'placeholder', ...withNote } : undefined;
}

function stated(schema: Schema): boolean {
  return (
    schema.const !== undefined ||
    (Array.isArray(schema.enum) && schema.enum.length > 0) ||
    schema.default !== undefined ||
    schema.example !== undefined ||
    (Array.isArray(schema.examples) && schema.examples.length > 0)
  );
}

/** The create body's string property a slug is made from: title, name, … by preference, else one ending in Title or Name. */
export function slugSource(create: ReadonlyMap<string, Schema> | undefined): string | undefined {
  if (create === undefined) return undefined;
  const strings = [...create].filter(([, schema]) => typeOf(schema) === 'string').map(([name]) => name);
  for (const wanted of SLUG_SOURCES) {
    const found = strings.find((name) => name.toLowerCase().replace(/[_-]/g, '') === wanted);
    if (found !== undefined) return found;
  }
  return strings.find((name) => /(?:Title|Name|_title|_name)$/.test(name));
}

/** Whether `value` is within the number schema's bounds and steps. */
function admits(schema: Schema, value: number): boolean {
  const flat = normalise(schema);
  if (typeof flat.minimum === 'number' && value < flat.minimum) return false;
  if (typeof flat.exclusiveMinimum === 'number' && value <= flat.exclusiveMinimum) return false;
  if (typeof flat.maximum === 'number' && value > flat.maximum) return false;
  if (typeof flat.exclusiveMaximum === 'number' && value >= flat.exclusiveMaximum) return false;
  return !(Array.isArray(flat.enum) && !flat.enum.includes(value)) && (flat.const === undefined || flat.const === value);
}

const KIND_TYPES: Readonly<Record<Exclude<ServerFieldKind, 'slug' | 'default' | 'placeholder'>, readonly string[]>> = {
  'created-time': ['string'],
  'updated-time': ['string'],
  counter: ['integer', 'number'],
  flag: ['boolean'],
};

/** A `fields` override checked against the schemas: a property no answer has, or a kind its type cannot hold, is an error naming it. */
function settled(
  name: string,
  rule: ServerFieldOverride,
  answered: ReadonlyMap<string, Answered>,
  create: ReadonlyMap<string, Schema> | undefined,
  input: PlanInput,
): ServerField | undefined {
  const origin = input.origin ?? { source: 'config', where: `the config file's resources["${input.path}"]` };
  const note = origin.source;
  const property = answered.get(name);
  if (property === undefined) {
    throw overrideError(
      origin,
      `"fields": "${name}" is not a property of ${input.path}'s items (answers have: ${[...answered.keys()].join(', ') || 'no properties'})`,
    );
  }
  if (rule === 'none') return undefined;
  if (name === input.identifier.property && input.identifier.assignedBy !== 'server' && typeof rule !== 'object') {
    throw overrideError(origin, `"fields": "${name}" is the identifier, which the client gives; only { "slugFrom": … } can make it`);
  }
  if (typeof rule === 'object') {
    if (typeOf(property.schema) !== 'string') throw overrideError(origin, `"fields": "${name}" is not a string: no slug can be made for it`);
    const source = create?.get(rule.slugFrom);
    if (source === undefined || typeOf(source) !== 'string') {
      const strings = [...(create ?? [])].filter(([, schema]) => typeOf(schema) === 'string').map(([key]) => key);
      throw overrideError(
        origin,
        `"fields": "${name}": { "slugFrom": "${rule.slugFrom}" } names no string property of the create body (it has: ${strings.join(', ') || 'none'})`,
      );
    }
    if (!admitsSlugs(property.schema))
      throw overrideError(origin, `"fields": "${name}": its pattern or length does not admit slugs (lower-case words and hyphens)`);
    return { property: name, kind: 'slug', from: rule.slugFrom, note };
  }
  const types = (KIND_TYPES as Readonly<Record<string, readonly string[]>>)[rule];
  const type = typeOf(property.schema);
  if (types !== undefined && (type === undefined || !types.includes(type))) {
    throw overrideError(origin, `"fields": "${name}" is ${type ?? 'of no one type'}; "${rule}" makes ${types.join(' or ')} values`);
  }
  return { property: name, kind: rule, note };
}
