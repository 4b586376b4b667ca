/**
 * What a lifecycle step knows: the model (what this sequence created, deleted and changed), how an
 * item is told apart in a list, where its item path and list are, and the facts a step carries
 * for the lifecycle checks (checks/resource-lifecycle.ts, checks/update-applied.ts).
 */
import type fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import type { Resource } from '../../../src/core/resources/model.js';
import { limitDefault } from '../../../src/core/resources/list-parameters.js';
import { isSuccess } from '../../../src/core/openapi/operation.js';
import { arrayItems, objectShape } from '../../../src/core/schema/properties.js';
import { formatOf } from '../../../src/core/schema/types.js';
import type { ExchangeFacts, ExpectedValue, ItemMark, StateFacts } from '../../checks/index.js';
import { describeSchema, type JsonSchema } from '../../generators/schema-arbitrary.js';
import { isJsonObject, parseJsonExact, toJsonText, withKey, type JsonObject, type JsonValue } from '../../generators/json-value.js';
import { itemWrapper, unwrapValue } from '../../../src/core/schema/envelope.js';
import { jsonSuccessSchema } from '../../../src/core/resources/responses.js';
import type { RequestCase } from '../case-source.js';
import { withParentOf } from '../parent-path.js';
import { timesAssigned } from '../assigned-ids.js';
import type { SequenceReal } from '../sequence.js';

/** The document's operations for each role the resource has. */
export interface LifecycleOperations {
  readonly create: Operation;
  readonly list?: Operation | undefined;
  readonly read?: Operation | undefined;
  readonly delete?: Operation | undefined;
  readonly update?: Operation | undefined;
  readonly replace?: Operation | undefined;
}

export interface Item {
  /** The identifier as the item path writes it; absent when the create's answer did not say it. */
  readonly key: string | undefined;
  readonly mark: ItemMark | undefined;
  /** The create request, to send again after a delete (client-assigned ids). */
  readonly create: RequestCase;
  readonly step: number;
  /** What a read must show after this sequence's updates and replaces (empty before any). */
  readonly expected: readonly ExpectedValue[];
  /** What its create sent that a read and a list must still show (the values a later change set are in expected instead), and its id. */
  readonly sent: readonly ExpectedValue[];
}

export interface Model {
  readonly held: Item[];
  readonly deleted: Item[];
}

export type Real = SequenceReal;

export type Command = fc.AsyncCommand<Model, Real, boolean>;

/** How lists are asked for: a small page (is the limit kept?) or everything (is every item there?). */
export type ListMode = { readonly kind: 'small'; readonly limit: bigint } | { readonly kind: 'complete' };

/** How this resource's items are told apart in a list: by their id when listed items carry it, else by a marker in a text property. */
export type Marking = { readonly by: 'id'; readonly property: string } | { readonly by: 'marker'; readonly property: string } | undefined;

/**
 * `list`: the resource's list operation, whose items may show less than a read (DigitalOcean's
 * evaluation datasets are created as `evaluation_dataset_uuid` and listed as `dataset_uuid`): an
 * item is told apart only by a property its listed items show too, else not at all (no list judges it).
 */
export function markingOf(resource: Resource, list?: Operation): Marking {
  const item = resource.itemSchema === undefined ? undefined : describeSchema(resource.itemSchema as JsonSchema);
  const listed = list === undefined ? undefined : listedProperties(resource, list);
  const shown = (name: string): boolean => listed === undefined || listed.has(name);
  if (item?.properties.has(resource.identifier.property) === true && shown(resource.identifier.property))
    return { by: 'id', property: resource.identifier.property };
  const created = resource.createSchema === undefined ? undefined : describeSchema(resource.createSchema as JsonSchema);
  if (item === undefined || created === undefined) return undefined;
  // Never a readOnly property (a CDN endpoint's own `endpoint` host): the server answers it its own way, as OpenAPI allows.
  // Nor one of a format, read from the create body's own declaration (describeSchema's properties carry it inside an allOf).
  const createShape = objectShape(resource.createSchema);
  const readOnly = new Set([...createShape.readOnly, ...objectShape(resource.itemSchema).readOnly]);
  for (const [name, schema] of created.properties) {
    const facts = describeSchema(schema);
    const free = facts.types?.has('string') === true && facts.enumValues === undefined && facts.patterns.length === 0 && (facts.maxLength ?? 64) >= 32;
    if (free && !readOnly.has(name) && item.properties.has(name) && shown(name) && formatOf(createShape.properties.get(name)) === undefined)
      return { by: 'marker', property: name };
  }
  return undefined;
}

/**
 * The properties the list's items declare, where its JSON answer declares them (undefined: free-form
 * items, or no schema to read). The JSON one, as core reads a success answer: verify reads JSON, and
 * a list declaring application/xml first may name its items' properties otherwise there.
 */
function listedProperties(resource: Resource, list: Operation): ReadonlySet<string> | undefined {
  const answer = jsonSuccessSchema(list);
  if (answer === undefined) return undefined;
  const wrapper = resource.list?.itemsProperty;
  const array = wrapper === undefined ? answer : objectShape(answer).properties.get(wrapper);
  const items = array === undefined ? undefined : arrayItems(array);
  const properties = items === undefined ? undefined : objectShape(items).properties;
  if (properties === undefined || properties.size === 0) return undefined;
  // Each listed item in its own envelope ({"user": {...}}): not read here, so nothing is ruled out. Told by the
  // schema, not the name: a CDN endpoint's own `endpoint` is a text, not the envelope its answers wrap it in.
  const envelope = resource.envelope?.answer;
  if (envelope !== undefined && itemWrapper(items)?.property === envelope) return undefined;
  return new Set(properties.keys());
}

function marks(items: readonly Item[]): ItemMark[] {
  return items.flatMap((item) => (item.mark === undefined ? [] : [item.mark]));
}

export function describeItem(item: Item): string {
  return item.mark !== undefined ? `${item.mark.property} ${item.mark.text}` : `id ${item.key ?? '?'}`;
}

export function describeExpected(value: ExpectedValue): string {
  return value.value === undefined ? `${value.property} removed` : `${value.property} ${toJsonText(value.value)}`;
}

/** For a list: each marked held item with every value it must show. */
export function shownFacts(model: Model, run: object): Partial<StateFacts> {
  const shown = model.held.flatMap((item) => (item.mark === undefined ? [] : [{ mark: item.mark, values: [...item.sent, ...item.expected] }]));
  const deleted = [...model.deleted];
  // Read when judged (after the case), not when sent: another sequence's create may be answered with a deleted id meanwhile.
  // Only an id the target has given again (to a create of any sequence) can name another item.
  return lazily(shown.length === 0 ? {} : { shown }, 'gone', () => {
    const gone = deleted.flatMap((item) => (item.mark === undefined || !givenAgain(run, item) ? [] : [{ mark: item.mark, values: lastKnown(item) }]));
    return gone.length === 0 ? undefined : gone;
  });
}

/** `base` with `more`'s own properties, getters kept as getters. */
export function withOwn<T extends object, U extends object>(base: T, more: U): T & U {
  return Object.defineProperties({ ...base }, Object.getOwnPropertyDescriptors(more)) as T & U;
}

/** `facts` with `key` read from `get` each time it is asked for (a getter), so a check sees what the run knew when it judged. */
export function lazily<T extends object, K extends keyof StateFacts>(facts: T, key: K, get: () => StateFacts[K]): T {
  return Object.defineProperty(facts, key, { get, enumerable: true, configurable: true });
}

/** Whether the target answered more than one create to the item's collection with its id. */
export function givenAgain(run: object, item: Item): boolean {
  return item.key !== undefined && timesAssigned(run, item.create.method, item.create.path, item.key) > 1;
}

/** What an item was last sent with: its create's values, with those a change since set replaced. */
export function lastKnown(item: Item): ExpectedValue[] {
  return [...item.sent.filter((sent) => !item.expected.some((changed) => changed.property === sent.property)), ...item.expected];
}

export function stateFacts(real: Real, model: Model, step: StateFacts['step'], because: string, extra: Partial<StateFacts> = {}): ExchangeFacts {
  return {
    role: 'lifecycle',
    kind: 'valid',
    target: 'body',
    // extra's getters kept as getters (see lazily), not read now as a spread would.
    state: withOwn({ step, held: marks(model.held), deleted: marks(model.deleted), holds: model.held.length }, extra),
    because: `step ${real.step} of a lifecycle run: ${because}`,
  };
}

/** The item path under the parent the item was created at, its key in place of its parameter, keeping the template's query (credentials). */
export function itemPath(resource: Resource, operation: Operation, template: RequestCase, key: string, createdAt: string): string {
  const parameter = resource.identifier.parameter ?? 'id';
  const query = template.path.includes('?') ? template.path.slice(template.path.indexOf('?')) : '';
  return `${withParentOf(operation.path, createdAt).replace(`{${parameter}}`, encodeURIComponent(key))}${query}`;
}

/** How a resource's list pages, read from its limit parameter's schema. */
export interface Paging {
  readonly limitName: string | undefined;
  /** The most a list may ask for (the schema's maximum): a complete list asks for it. */
  readonly maxLimit: bigint | undefined;
  /** The page a list asked for no limit answers (the schema's default, RealWorld's 20). */
  readonly defaultLimit: bigint | undefined;
}

export function pagingOf(resource: Resource, operation: Operation): Paging {
  const limitName = resource.list?.limit;
  const schema = operation.request?.query?.find((q) => q.name === limitName)?.schema as JsonSchema | undefined;
  const declared = limitDefault(operation, resource.list);
  return {
    limitName,
    maxLimit: schema === undefined ? undefined : describeSchema(schema).integerRange.max,
    defaultLimit: declared === undefined ? undefined : BigInt(declared),
  };
}

/**
 * The page assumed where a list declares a limit but neither its default nor its maximum: no public
 * API we read pages by fewer items when asked for no limit (Stripe's 10; GitHub's and Gitea's 30), so
 * a list of fewer items than this is whole whatever the server's own page. Gitea's document declares
 * `limit` with neither, and Gitea answers 30 when sent none: judged complete, a list of its first 30
 * items falsely failed created-item-listed on a target holding more.
 */
export const UNDECLARED_PAGE = 10n;

/**
 * A list's limits: the one it sends (a small page, or the most it may ask for), and the page it is
 * answered with: that, or where it sends none, the declared default (UNDECLARED_PAGE where none is
 * declared). A list that fills its page may leave the sequence's items to later pages (the items of
 * other cases come first in a newest-first list), so only a shorter one is complete.
 */
export function listLimits(paging: Paging, mode: ListMode): { readonly sent?: bigint; readonly page?: bigint } {
  if (paging.limitName === undefined) return {};
  const sent = mode.kind === 'small' ? mode.limit : paging.maxLimit;
  if (sent !== undefined) return { sent, page: sent };
  return { page: paging.defaultLimit ?? UNDECLARED_PAGE };
}

/** The list's path: the template's undeclared query parameters (credentials) kept, the declared ones (filters, paging) replaced. */
export function listPath(operation: Operation, template: RequestCase, paging: Paging, mode: ListMode, createdAt: string | undefined): string {
  const declared = new Set((operation.request?.query ?? []).map((q) => q.name));
  const query = template.path.includes('?') ? template.path.slice(template.path.indexOf('?') + 1) : '';
  const kept = query.split('&').filter((pair) => pair !== '' && !declared.has(decodeURIComponent(pair.split('=')[0] ?? '')));
  const { sent } = listLimits(paging, mode);
  if (paging.limitName !== undefined && sent !== undefined) kept.push(`${encodeURIComponent(paging.limitName)}=${sent}`);
  const templateBase = template.path.includes('?') ? template.path.slice(0, template.path.indexOf('?')) : template.path;
  const parentBase = createdAt === undefined ? undefined : withParentOf(operation.path, createdAt);
  const base = parentBase === undefined || parentBase.includes('{') ? templateBase : parentBase;
  return kept.length === 0 ? base : `${base}?${kept.join('&')}`;
}

export function keyText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The item a body carries: inside the resource's envelope for that side (`{"article": {...}}`), read
 * by the one envelope reader serve uses (core/schema/envelope.ts); the body itself where there is none.
 */
export function itemOf(resource: Resource, body: JsonValue | undefined, side: 'request' | 'answer'): JsonValue | undefined {
  const property = resource.envelope?.[side];
  return property === undefined || !isJsonObject(body) ? body : (unwrapValue(body, property) as JsonValue | undefined);
}

/** The body with its item replaced by `item`: in the request envelope where the resource has one. */
export function withItem(resource: Resource, body: JsonObject, item: JsonObject): JsonObject {
  const property = resource.envelope?.request;
  return property === undefined || !isJsonObject(body[property]) ? item : withKey(body, property, item);
}

/** The identifier an accepted create's answer gives for the item it made; undefined when the answer is no JSON object carrying it. */
export function keyFromAnswer(resource: Resource, answer: string): string | undefined {
  try {
    const parsed = itemOf(resource, parseJsonExact(answer), 'answer');
    return isJsonObject(parsed) ? keyText(parsed[resource.identifier.property]) : undefined;
  } catch {
    return undefined; // not JSON: response-schema-conformance reports it
  }
}

/** The identifier of the item an accepted create made: the one its body sent where the client assigns it, else the one its answer gives. */
export function createdKeyIn(resource: Resource, body: Readonly<Record<string, JsonValue>> | undefined, answer: string): string | undefined {
  const item = itemOf(resource, body as JsonValue | undefined, 'request');
  const sent = isJsonObject(item) ? keyText(item[resource.identifier.property]) : undefined;
  return resource.identifier.assignedBy === 'server' ? (keyFromAnswer(resource, answer) ?? sent) : (sent ?? keyFromAnswer(resource, answer));
}

/** An id as exact JSON text: digits for an integer id, a quoted string otherwise. */
export function idText(resource: Resource, key: string): string {
  return resource.identifier.type.kind === 'integer' && /^-?\d+$/.test(key) ? key : JSON.stringify(key);
}

/** An id as the JSON value a body carries: a bigint for an integer id, a string otherwise. */
export function idValue(resource: Resource, key: string): JsonValue {
  return resource.identifier.type.kind === 'integer' && /^-?\d+$/.test(key) ? BigInt(key) : key;
}

/** The pick-th item with a key, counted round; a negative pick counts from the last (-1: the latest). */
export function pickFrom(items: readonly Item[], pick: number): Item | undefined {
  const keyed = items.filter((item) => item.key !== undefined);
  return keyed.at(pick % Math.max(1, keyed.length));
}

/** The item that sent the first create of the run: every later create and list stays under its parent. */
export function firstCreatedAt(model: Model): string | undefined {
  return (model.held[0] ?? model.deleted[0])?.create.path;
}
