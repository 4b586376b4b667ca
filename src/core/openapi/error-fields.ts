/**
 * An error response schema read once into a plan of the body to write: which property carries the
 * refusal's number, which its message, which the HTTP status, and a value valid by the schema for
 * every other required property. The plan is plain data, compiled at start; filling it for a
 * refusal walks the plan, never the schema.
 */
import { STATUS_CODES } from 'node:http';
import { firstTypeOf } from '../schema/types.js';
import { flatten, type Resolve, type Schema } from './schema-read.js';

/** The type a field of an error body takes (types.ts' first listed); an untyped one holds text. */
function fieldType(schema: Schema): string {
  return firstTypeOf(schema) ?? 'string';
}

/** What a refusal puts in a body: its number, its message, the HTTP status, its table code. */
export interface RefusalFacts {
  readonly error: number;
  readonly message: string;
  readonly status: number;
  /** The HTTP reason phrase of `status` ("Bad Request"). */
  readonly title: string;
  /** The table's stable code, PST_ERR_…. */
  readonly code: string;
}

/** Bounds an integer filled from a refusal must keep; out of them, the next candidate or the fixed value. */
interface IntegerBounds {
  readonly minimum: number;
  readonly maximum: number;
  readonly allowed: ReadonlySet<number> | undefined;
}

export type Plan =
  | { readonly kind: 'fixed'; readonly value: unknown }
  /** The refusal's number, else the HTTP status, else `otherwise`, whichever the bounds allow first. */
  | { readonly kind: 'number'; readonly candidates: readonly ('error' | 'status')[]; readonly bounds: IntegerBounds; readonly otherwise: number }
  | { readonly kind: 'text'; readonly fact: 'message' | 'title' | 'code'; readonly maxLength: number }
  | { readonly kind: 'now' }
  /** The status's reason phrase as a token in the example's style: not_found, NOT-FOUND. */
  | { readonly kind: 'phrase'; readonly separator: string; readonly upper: boolean }
  | { readonly kind: 'object'; readonly fields: readonly (readonly [string, Plan])[] }
  | { readonly kind: 'array'; readonly items: readonly Plan[] };

/** Names that say "the error's number" (the first present wins), "its text", "the HTTP status". */
const CODE_NAMES = ['code', 'error', 'errorcode', 'error_code', 'errcode'];
const MESSAGE_NAMES = ['message', 'detail', 'details', 'description', 'msg', 'errormessage', 'error_message', 'error_description', 'reason', 'text'];
const STATUS_NAMES = ['status', 'statuscode', 'status_code', 'httpstatus', 'http_status'];
/** Deep enough for any error body; a cyclic schema stops here. */
const MAX_DEPTH = 8;

/**
 * The plan of a body valid by `schema`, its fields filled by meaning. A schema with no field named
 * for a message still carries the reason: in its first text, or list of texts, that may hold any
 * (Conduit's `{errors: {body: [text]}}`), so the client sees what the log says.
 */
export function planBody(schema: Schema, resolve: Resolve, problemJson: boolean): Plan {
  const planned = plan(schema, resolve, 0, problemJson ? 'problem' : 'top');
  if (carriesMessage(planned)) return planned;
  const path = reasonPath(schema, resolve, 0);
  return path === undefined ? planned : withReason(planned, schema, path, resolve, 0);
}

function carriesMessage(planned: Plan): boolean {
  switch (planned.kind) {
    case 'text':
      return planned.fact === 'message';
    case 'object':
      return planned.fields.some(([, field]) => carriesMessage(field));
    case 'array':
      return planned.items.some(carriesMessage);
    default:
      return false;
  }
}

/** A step to the reason's place: a property, or a list's first item; `schema` is the step's own. */
type Step = { readonly property: string; readonly schema: Schema } | { readonly item: true; readonly schema: Schema };

/** Whether a schema is a text free to hold any message (no format, pattern, enum or const). */
function isFreeText(schema: Schema): boolean {
  return fieldType(schema) === 'string' && fixedValue(schema) === undefined && schema.format === undefined && schema.pattern === undefined;
}

/** Steps to the first free text, or list of free texts, in declaration order, depth first; [] when `raw` is one. */
function reasonPath(raw: Schema, resolve: Resolve, depth: number): Step[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const schema = flatten(raw, resolve, depth);
  if (isFreeText(schema)) return [];
  const type = fieldType(schema);
  if (type === 'array') {
    if (typeof schema.maxItems === 'number' && schema.maxItems < 1) return undefined;
    const items = typeof schema.items === 'object' && schema.items !== null ? flatten(schema.items as Schema, resolve, depth + 1) : {};
    if (isFreeText(items)) return [];
    const rest = reasonPath(items, resolve, depth + 1);
    return rest === undefined ? undefined : [{ item: true, schema: items }, ...rest];
  }
  if (type !== 'object') return undefined;
  for (const [property, value] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const rest = reasonPath(value, resolve, depth + 1);
    if (rest !== undefined) return [{ property, schema: value }, ...rest];
  }
  return undefined;
}

/** `planned` with the message put where `path` leads (a field the plan left out is added). */
function withReason(planned: Plan, schema: Schema, path: readonly Step[], resolve: Resolve, depth: number): Plan {
  const [step, ...rest] = path;
  if (step === undefined) return reasonPlan(planned, flatten(schema, resolve, depth), resolve, depth);
  const child = (existing: Plan | undefined) => withReason(existing ?? plan(step.schema, resolve, depth + 1, 'nested'), step.schema, rest, resolve, depth + 1);
  if ('property' in step) {
    const fields = planned.kind === 'object' ? planned.fields : [];
    const at = fields.findIndex(([name]) => name === step.property);
    if (at === -1) return { kind: 'object', fields: [...fields, [step.property, child(undefined)]] };
    return { kind: 'object', fields: fields.map((field, index) => (index === at ? [field[0], child(field[1])] : field)) };
  }
  const items = planned.kind === 'array' ? planned.items : [];
  return { kind: 'array', items: [child(items[0]), ...items.slice(1)] };
}

/** The message as a text, or as the first of a list of texts, within the text's maxLength. */
function reasonPlan(planned: Plan, schema: Schema, resolve: Resolve, depth: number): Plan {
  const text = (of: Schema): Plan => ({ kind: 'text', fact: 'message', maxLength: typeof of.maxLength === 'number' ? of.maxLength : Number.POSITIVE_INFINITY });
  if (fieldType(schema) !== 'array') return text(schema);
  const items = typeof schema.items === 'object' && schema.items !== null ? flatten(schema.items as Schema, resolve, depth + 1) : {};
  return { kind: 'array', items: [text(items), ...(planned.kind === 'array' ? planned.items.slice(1) : [])] };
}

type Place = 'top' | 'problem' | 'nested';

function plan(raw: Schema, resolve: Resolve, depth: number, place: Place): Plan {
  const schema = flatten(raw, resolve, depth);
  const fixed = fixedValue(schema);
  if (fixed !== undefined) return { kind: 'fixed', value: fixed };
  const type = fieldType(schema);
  if (depth > MAX_DEPTH) return { kind: 'fixed', value: emptyOf(type) };
  switch (type) {
    case 'object':
      return planObject(schema, resolve, depth, place);
    case 'array': {
      const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : {};
      const count = Math.max(0, Math.min(Number(schema.minItems ?? 0), 16));
      return { kind: 'array', items: Array.from({ length: count }, () => plan(items, resolve, depth + 1, 'nested')) };
    }
    default:
      // A body that is one text is the message.
      if (type === 'string' && place !== 'nested' && schema.format === undefined && schema.pattern === undefined) {
        return { kind: 'text', fact: 'message', maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY };
      }
      // A required time stamp says when the refusal happened, not 1970.
      if (type === 'string' && schema.format === 'date-time' && !hasOwnValue(schema)) return { kind: 'now' };
      return { kind: 'fixed', value: anyValue(schema, type) };
  }
}

function hasOwnValue(schema: Schema): boolean {
  return 'default' in schema || 'example' in schema || (Array.isArray(schema.examples) && schema.examples.length > 0);
}

function planObject(schema: Schema, resolve: Resolve, depth: number, place: Place): Plan {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties);
  const lower = (name: string) => name.toLowerCase();
  const typed = (name: string) => fieldType(flatten(properties[name] ?? {}, resolve, depth + 1));
  const isNumber = (name: string) => typed(name) === 'integer' || typed(name) === 'number';
  const isText = (name: string) => typed(name) === 'string';

  const statusField = names.find((name) => STATUS_NAMES.includes(lower(name)) && isNumber(name));
  const numbers = names.filter((name) => isNumber(name) && name !== statusField);
  const codeField =
    CODE_NAMES.map((wanted) => numbers.find((name) => lower(name) === wanted)).find((name) => name !== undefined) ?? numbers.find((name) => required.has(name));
  const texts = names.filter(isText);
  const messageField = MESSAGE_NAMES.map((wanted) => texts.find((name) => lower(name) === wanted)).find((name) => name !== undefined);
  const titleField = texts.find((name) => lower(name) === 'title');
  const tableCodeField = texts.find((name) => CODE_NAMES.includes(lower(name)));
  const typeField = place === 'problem' ? texts.find((name) => lower(name) === 'type') : undefined;

  const fields: (readonly [string, Plan])[] = [];
  for (const name of names) {
    const property = flatten(properties[name] ?? {}, resolve, depth + 1);
    const meaning = meaningOf(name);
    if (meaning === undefined && !required.has(name)) continue;
    fields.push([name, meaning ?? plan(property, resolve, depth + 1, 'nested')]);
  }
  return { kind: 'object', fields };

  function meaningOf(name: string): Plan | undefined {
    const property = flatten(properties[name] ?? {}, resolve, depth + 1);
    const maxLength = typeof property.maxLength === 'number' ? property.maxLength : Number.POSITIVE_INFINITY;
    const fixed = fixedValue(property);
    if (name === statusField) return numberPlan(property, ['status', 'error']);
    if (name === codeField) return numberPlan(property, ['error', 'status']);
    if (name === typeField) return { kind: 'fixed', value: fixed ?? 'about:blank' };
    // A text the schema constrains by pattern or format cannot carry a message: a valid stand-in does.
    if (fixed !== undefined || isEnumerated(property) || property.pattern !== undefined || property.format !== undefined) return undefined;
    const phrase = phrasePlan(property);
    if (phrase !== undefined) return phrase;
    // A title beside a message is the status's phrase (RFC 9457); alone, it carries the message.
    if (name === titleField) return { kind: 'text', fact: messageField === undefined ? 'message' : 'title', maxLength };
    if (name === messageField) return { kind: 'text', fact: 'message', maxLength };
    if (name === tableCodeField) return { kind: 'text', fact: 'code', maxLength };
    return undefined;
  }
}

function numberPlan(schema: Schema, candidates: readonly ('error' | 'status')[]): Plan {
  const fixed = fixedValue(schema);
  if (fixed !== undefined) return { kind: 'fixed', value: fixed };
  const allowed = Array.isArray(schema.enum) ? new Set(schema.enum.filter((value): value is number => typeof value === 'number')) : undefined;
  const bounds: IntegerBounds = { minimum: lowerBound(schema), maximum: upperBound(schema), allowed };
  return { kind: 'number', candidates, bounds, otherwise: Number(anyValue(schema, 'integer')) };
}

/** The body of one refusal, by its plan. */
export function fill(planned: Plan, facts: RefusalFacts): unknown {
  switch (planned.kind) {
    case 'fixed':
      return planned.value;
    case 'number': {
      const { bounds } = planned;
      const fits = (value: number) => value >= bounds.minimum && value <= bounds.maximum && (bounds.allowed === undefined || bounds.allowed.has(value));
      return planned.candidates.map((fact) => facts[fact]).find(fits) ?? planned.otherwise;
    }
    case 'text': {
      const text = facts[planned.fact];
      return text.length > planned.maxLength ? text.slice(0, planned.maxLength) : text;
    }
    case 'now':
      return new Date().toISOString();
    case 'phrase': {
      const words = facts.title
        .replace(/'/g, '')
        .split(/[^A-Za-z0-9]+/)
        .filter((word) => word.length > 0);
      const token = words.join(planned.separator);
      return planned.upper ? token.toUpperCase() : token.toLowerCase();
    }
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [name, field] of planned.fields)
        Object.defineProperty(body, name, { value: fill(field, facts), enumerable: true, writable: true, configurable: true });
      return body;
    }
    case 'array':
      return planned.items.map((item) => fill(item, facts));
  }
}

/** Every status's reason phrase, letters only, lower case ("notfound"): an example that is one names a status. */
const PHRASES: ReadonlySet<string> = new Set(Object.values(STATUS_CODES).map((phrase) => (phrase ?? '').replace(/[^A-Za-z0-9]/g, '').toLowerCase()));

/**
 * A text whose example (or default) is a status's phrase as one token (DigitalOcean's error `id`,
 * example `not_found`) names the status: each refusal says its own, in that style, rather than
 * every refusal saying the example's.
 */
function phrasePlan(schema: Schema): Plan | undefined {
  // Prism's reading of a document turns OpenAPI 3.0's `example` into `examples: [...]`: either says it.
  const examples = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
  const said = 'example' in schema ? schema.example : examples.length > 0 ? examples[0] : schema.default;
  if (typeof said !== 'string') return undefined;
  // One word ("conflict") says no separator: snake case, the common one.
  const separator = said.includes('-') ? '-' : '_';
  const word = said === said.toUpperCase() ? '[A-Z0-9]+' : '[a-z0-9]+';
  if (!new RegExp(`^${word}(?:${separator}${word})*$`).test(said) || !PHRASES.has(said.replace(/[_-]/g, '').toLowerCase())) return undefined;
  return { kind: 'phrase', separator, upper: said === said.toUpperCase() };
}

function isEnumerated(schema: Schema): boolean {
  return Array.isArray(schema.enum) && schema.enum.length > 0;
}

/** A value the schema itself gives: const, the first enum value, default, an example. */
function fixedValue(schema: Schema): unknown {
  if ('const' in schema) return schema.const;
  if (isEnumerated(schema)) return (schema.enum as unknown[])[0];
  return undefined;
}

function emptyOf(type: string): unknown {
  return type === 'object' ? {} : type === 'array' ? [] : type === 'integer' || type === 'number' ? 0 : type === 'boolean' ? false : '';
}

function lowerBound(schema: Schema): number {
  const { minimum, exclusiveMinimum } = schema;
  if (typeof exclusiveMinimum === 'number') return Math.floor(exclusiveMinimum) + 1;
  if (typeof minimum === 'number') return exclusiveMinimum === true ? Math.floor(minimum) + 1 : Math.ceil(minimum);
  return Number.MIN_SAFE_INTEGER;
}

function upperBound(schema: Schema): number {
  const { maximum, exclusiveMaximum } = schema;
  if (typeof exclusiveMaximum === 'number') return Math.ceil(exclusiveMaximum) - 1;
  if (typeof maximum === 'number') return exclusiveMaximum === true ? Math.ceil(maximum) - 1 : Math.floor(maximum);
  return Number.MAX_SAFE_INTEGER;
}

/** Texts valid by their format, for a required field that means nothing to a refusal. */
const FORMATTED: Readonly<Record<string, string>> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'plantstore@example.com',
  'idn-email': 'plantstore@example.com',
  uri: 'about:blank',
  'uri-reference': 'about:blank',
  iri: 'about:blank',
  'iri-reference': 'about:blank',
  hostname: 'localhost',
  'idn-hostname': 'localhost',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  duration: 'PT0S',
  byte: '',
};

/** A value valid by a schema that carries no meaning for a refusal: its default or example, else one by type and bounds. */
function anyValue(schema: Schema, type: string): unknown {
  if ('default' in schema) return schema.default;
  if ('example' in schema) return schema.example;
  if (hasOwnValue(schema)) return (schema.examples as unknown[])[0];
  switch (type) {
    case 'integer':
    case 'number': {
      const low = lowerBound(schema);
      const high = upperBound(schema);
      return low <= 0 && high >= 0 ? 0 : low > 0 ? low : high;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      const formatted = typeof schema.format === 'string' ? FORMATTED[schema.format] : undefined;
      if (formatted !== undefined) return formatted;
      return 'x'.repeat(Math.max(0, Math.min(Number(schema.minLength ?? 0), 1024)));
    }
    default:
      return emptyOf(type);
  }
}
