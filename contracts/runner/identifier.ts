/**
 * What a run knows of the identifier of the items an operation creates: the property that holds
 * it and the values it may take (an integer within its bounds, a uuid, a string within its
 * length and pattern), so that ids are drawn fresh, and put into a body, by the identifier's own
 * property and type. Without a resource (no client-assigned identifier), a top-level integer "id"
 * is what a case's id is, as it always was.
 */
import { randomUUID } from 'node:crypto';
import type { Resource } from '../../src/core/resources/model.js';
import { isJsonObject, toJsonText, withKey } from '../generators/json-value.js';
import type { RequestCase } from './case-source.js';
import { freshen, freshIdWithin, type IdSpace, type Random64 } from './ids.js';
import { freshenString, freshString, keepsRules, stringIdSchema, type StringIdRules } from './string-ids.js';

/** An identifier's value: a bigint for an integer id, a string otherwise. */
export type IdValue = bigint | string;

export type RunIdentifier =
  | { readonly property: string; readonly kind: 'integer'; readonly space: IdSpace }
  | { readonly property: string; readonly kind: 'uuid' }
  /** `unfreshable`: why no never-used value can be drawn (then ids are sent as generated, and the scenarios that need fresh ones are left out). */
  | { readonly property: string; readonly kind: 'string'; readonly rules?: StringIdRules; readonly unfreshable?: string };

/** The identifier a run draws for a resource's creates: wherever the client sends ids (a server-assigned id is not sent). */
export function runIdentifierOf(resource: Resource | undefined): RunIdentifier | undefined {
  if (resource === undefined || resource.identifier.assignedBy === 'server') return undefined;
  const { property, type } = resource.identifier;
  if (type.kind === 'integer') return { property, kind: 'integer', space: { min: type.minimum, max: type.maximum } };
  if (type.kind === 'uuid') return { property, kind: 'uuid' };
  const schema = isJsonSchemaObject(resource.createSchema) ? propertySchema(resource.createSchema, property) : undefined;
  const read = stringIdSchema(property, schema);
  return 'rules' in read ? { property, kind: 'string', rules: read.rules } : { property, kind: 'string', unfreshable: read.unfreshable };
}

/**
 * The identifier as a body names it, whoever assigns it: a replace's or update's body may carry a
 * server-assigned id too (Eclipse Ditto's thingId), and then names the path's item.
 */
export function bodyIdentifierOf(resource: Resource): RunIdentifier {
  const drawn = runIdentifierOf(resource);
  if (drawn !== undefined) return drawn;
  const { property, type } = resource.identifier;
  if (type.kind === 'integer') return { property, kind: 'integer', space: { min: type.minimum, max: type.maximum } };
  return type.kind === 'uuid' ? { property, kind: 'uuid' } : { property, kind: 'string', unfreshable: 'the server assigns it' };
}

function isJsonSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The property's schema in an object schema (its own properties, then its allOf branches'). */
function propertySchema(schema: Record<string, unknown>, property: string): unknown {
  const properties = schema.properties;
  if (isJsonSchemaObject(properties) && properties[property] !== undefined) return properties[property];
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const found = isJsonSchemaObject(branch) ? propertySchema(branch, property) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function propertyOf(identifier: RunIdentifier | undefined): string {
  return identifier?.property ?? 'id';
}

/** The case's id, when its body carries one of the identifier's type. */
export function idIn(requestCase: RequestCase, identifier: RunIdentifier | undefined): IdValue | undefined {
  const payload = requestCase.payload;
  if (!isJsonObject(payload)) return undefined;
  const value = payload[propertyOf(identifier)];
  if (identifier === undefined || identifier.kind === 'integer') {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    return undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/**
 * The same case with its id replaced (body re-written with the exact JSON writer), or undefined
 * when the body is not the plain rendering of its payload (it cannot be changed without changing
 * something else), carries no id of the identifier's type (a uuid stays a uuid where an integer is
 * expected), or the new value is of another type.
 */
export function withIdIn(requestCase: RequestCase, id: IdValue, identifier: RunIdentifier | undefined): RequestCase | undefined {
  const payload = requestCase.payload;
  const property = propertyOf(identifier);
  if (!isJsonObject(payload) || !Object.prototype.hasOwnProperty.call(payload, property)) return undefined;
  const current = payload[property];
  const integer = identifier === undefined || identifier.kind === 'integer';
  if (integer ? typeof id !== 'bigint' : typeof id !== 'string') return undefined;
  if (integer ? typeof current !== 'bigint' && !(typeof current === 'number' && Number.isInteger(current)) : typeof current !== 'string') return undefined;
  if (requestCase.body !== toJsonText(payload)) return undefined;
  const changed = withKey(payload, property, id);
  return { ...requestCase, payload: changed, body: toJsonText(changed) };
}

/** A never-used id (negated when `negative` and an integer space has room below zero); undefined when none can be drawn. */
export function freshIdValue(random: Random64, identifier: RunIdentifier | undefined, negative = false): IdValue | undefined {
  if (identifier === undefined) return freshIdWithin(random, undefined, negative);
  switch (identifier.kind) {
    case 'integer':
      return freshIdWithin(random, identifier.space, negative);
    case 'uuid':
      return randomUUID();
    case 'string':
      return identifier.rules === undefined ? undefined : freshString(identifier.rules, random);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string id keeps the identifier's rules (a uuid's form, a string's length and pattern): one an invalid case does not break. */
export function keepsIdRules(id: string, identifier: RunIdentifier | undefined): boolean {
  if (identifier?.kind === 'uuid') return UUID.test(id);
  return identifier?.kind === 'string' && identifier.rules !== undefined && keepsRules(id, identifier.rules);
}

/** Whether fresh ids can be drawn for the identifier (the duplicate, model and lifecycle scenarios need them). */
export function canDrawFresh(identifier: RunIdentifier | undefined): boolean {
  return identifier?.kind !== 'string' || identifier.rules !== undefined;
}

/** The id to send for a generated one: made fresh where that keeps the case's point (ids.ts, string-ids.ts), else literal. */
export function freshenId(id: IdValue, identifier: RunIdentifier | undefined, random: Random64): { value: IdValue; freshness: 'fresh' | 'literal' } {
  if (typeof id === 'bigint') return freshen(id, random);
  if (identifier?.kind === 'uuid') {
    // A uuid's point is its form, seldom its value: all but the nil and max uuids are drawn anew, in the case they came in.
    if (/^[0-]+$|^[fF-]+$/.test(id)) return { value: id, freshness: 'literal' };
    const fresh = randomUUID();
    return { value: id === id.toUpperCase() ? fresh.toUpperCase() : fresh, freshness: 'fresh' };
  }
  if (identifier?.kind === 'string' && identifier.rules !== undefined) return freshenString(id, identifier.rules, random);
  return { value: id, freshness: 'literal' };
}

/** An id as sent, for a case's facts (ExchangeFacts.id): its property named where it is not "id". */
export interface SentIdValue {
  readonly value: IdValue;
  readonly freshness: 'fresh' | 'literal';
  readonly property?: string;
}

export function sentId(value: IdValue, freshness: 'fresh' | 'literal', identifier: RunIdentifier | undefined): SentIdValue {
  const property = propertyOf(identifier);
  return property === 'id' ? { value, freshness } : { value, freshness, property };
}

/** An id as a finding or label shows it: digits for an integer, JSON-quoted otherwise. */
export function idLabel(id: IdValue): string {
  return typeof id === 'bigint' ? String(id) : JSON.stringify(id);
}
