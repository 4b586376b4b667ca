/**
 * The control API of every resource: `/__control/resources/{resource}/items` lists (paged as
 * /__control/plants is), seeds and resets a collection, `…/items/{id}` reads and removes one item.
 * A nested resource's collection is chosen by its parent parameters, given as query parameters
 * with the document's names (`/__control/resources/owners.pets/items?ownerId=7`); all of them are
 * required, since each parent has its own items.
 */
import type { HandlerContext } from '../handlers/binding.js';
import type { Outcome } from '../handlers/outcome.js';
import { toJsonText, type JsonValue } from '../core/json/exact-json.js';
import type { Resource } from '../core/resources/model.js';
import { collectionKey, type CollectionKey, type Item, type ItemStore } from '../store/item-store.js';
import { itemOfValue, keyJson, keyOfText } from '../store/resource-items.js';
import { json, noContent, notFound, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import { durably, pageQuery, pagedAnswer } from './plants.js';

type Target = { ok: true; resource: Resource; key: CollectionKey } | { ok: false; refusal: Outcome };

/** The resource named in the path and the collection its parent parameters choose. */
function targetOf({ pathParameters, request }: HandlerContext, control: ControlContext): Target {
  const name = pathParameters.resource ?? '';
  const resource = control.resources.resources.find((candidate) => candidate.name === name);
  if (!resource) {
    const names = control.resources.resources.map((candidate) => candidate.name);
    return { ok: false, refusal: notFound(`no resource is named "${name}"; the resources served are: ${names.length > 0 ? names.join(', ') : 'none'}`) };
  }
  const values: string[] = [];
  for (const parameter of resource.parentParameters) {
    const value = request.query[parameter];
    if (typeof value !== 'string' || value === '') {
      return {
        ok: false,
        refusal: refused(
          'schemaViolation',
          `${name} is nested: name its parent with the query parameter ${parameter} (${resource.parentParameters.map((p) => `${p}=…`).join('&')})`,
        ),
      };
    }
    values.push(value);
  }
  return { ok: true, resource, key: collectionKey(resource, values) };
}

function itemJson(item: Item): string {
  return toJsonText(item.fields as JsonValue);
}

export const listItems: ControlHandler = async (context, control) => {
  const target = targetOf(context, control);
  if (!target.ok) return target.refusal;
  const page = pageQuery(context.request.query);
  if (!page.ok) return page.refusal;
  const loaded = await durably(control.stores.existing(context.tenant).then((tenant) => tenant?.collection(target.key)));
  if (!loaded.ok) return loaded.refusal;
  const store: ItemStore | undefined = loaded.value;
  const read =
    store &&
    (async (cursor: string | undefined, limit: number) => {
      const chunk = await store.list({ cursor, limit });
      return { texts: chunk.items.map(itemJson), next: chunk.next };
    });
  const parents = target.resource.parentParameters
    .map((parameter) => `&${encodeURIComponent(parameter)}=${encodeURIComponent(String(context.request.query[parameter]))}`)
    .join('');
  return pagedAnswer(read, page, (cursor) => `${context.request.path}?limit=${page.limit}&cursor=${cursor}${parents}`);
};

/**
 * Stores many items at once, all or nothing (with --data-dir, one log record): each is checked by
 * its resource's schema first, and a batch with one bad item stores none. Keys already stored (or
 * repeated in the batch) are left out and reported; a server-assigned integer key is taken as
 * given, and the allocation sequence moves past it.
 */
export const seedItems: ControlHandler = async (context, control) => {
  const target = targetOf(context, control);
  if (!target.ok) return target.refusal;
  const { body } = context;
  if (!Array.isArray(body)) return refused('schemaViolation', 'the body must be a list of items');
  const items: Item[] = [];
  for (const [index, value] of body.entries()) {
    const problem = control.checkItem(target.resource, value, `[${index}]`);
    if (problem !== undefined) return refused('schemaViolation', `${target.resource.name}${problem}`);
    const read = itemOfValue(target.resource, value as JsonValue);
    if (!read.ok) return refused('schemaViolation', `${target.resource.name}[${index}]: ${read.reason}`);
    items.push(read.item);
  }
  const seeded = await durably(control.stores.forTenant(context.tenant).then((tenant) => tenant.collection(target.key).seed(items)));
  if (!seeded.ok) return seeded.refusal;
  const { created = 0, duplicates = [] } = seeded.value ?? {};
  return json(200, `{"created":${created},"duplicates":[${duplicates.map(keyJson).join(',')}]}`);
};

export const resetItems: ControlHandler = async (context, control) => {
  const target = targetOf(context, control);
  if (!target.ok) return target.refusal;
  const result = await durably(control.stores.existing(context.tenant).then((tenant) => tenant?.collection(target.key).reset()));
  return result.ok ? noContent() : result.refusal;
};

/** The item the path names, read by the identifier's type (an int64 exactly). */
function keyTarget(context: HandlerContext, control: ControlContext) {
  const target = targetOf(context, control);
  if (!target.ok) return target;
  const text = context.pathParameters.id ?? '';
  const key = keyOfText(target.resource.identifier, text);
  if (!key.ok) return { ok: false as const, refusal: refused('schemaViolation', `${target.resource.name}: ${key.reason}`) };
  return { ...target, id: key.key };
}

export const getItem: ControlHandler = async (context, control) => {
  const target = keyTarget(context, control);
  if (!target.ok) return target.refusal;
  const read = await durably(control.stores.existing(context.tenant).then((tenant) => tenant?.collection(target.key).get(target.id)));
  if (!read.ok) return read.refusal;
  return read.value ? json(200, itemJson(read.value)) : notFound(`${target.resource.name} holds no item ${keyJson(target.id)}`);
};

export const deleteItem: ControlHandler = async (context, control) => {
  const target = keyTarget(context, control);
  if (!target.ok) return target.refusal;
  const deleted = await durably(control.stores.existing(context.tenant).then((tenant) => tenant?.collection(target.key).delete(target.id)));
  if (!deleted.ok) return deleted.refusal;
  return deleted.value ? noContent() : notFound(`${target.resource.name} holds no item ${keyJson(target.id)}`);
};
