/**
 * The control API of every resource: `/__control/resources/{resource}/items` lists (a page at a
 * time), seeds and resets a collection, `…/items/{id}` reads and removes one item. A nested
 * resource's collection is chosen by its parent parameters, given as query parameters with the
 * document's names (`/__control/resources/owners.pets/items?ownerId=7`); all of them are
 * required, since each parent has its own items. `/__control/plants…` are the same routes with
 * the resource fixed (plants.ts).
 */
import type { HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import { toJsonText, type JsonValue } from '../core/json/exact-json.js';
import { maskBody } from '../journal/mask.js';
import type { Resource } from '../core/resources/model.js';
import { collectionKey, type CollectionKey, type Item, type ItemKey } from '../store/item-store.js';
import { itemOfValue } from '../store/resource-items.js';
import { keyOfText, keyText } from '../core/schema/identifier.js';
import { durably, json, noContent, notFound, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import { pageQuery, pagedAnswer } from './pages.js';

/** The collection a request names, or why it names none. */
export type Target =
  | {
      readonly ok: true;
      readonly resource: Resource;
      readonly key: CollectionKey;
      /** The parent parameters as a query string (`&ownerId=7`), carried into the next page's link. */
      readonly parents: string;
      /** What one item is called in a refusal: "no plant has id 5". */
      readonly noun: string;
    }
  | { readonly ok: false; readonly refusal: Outcome };

/** How a family of routes finds its collection. */
export type FindTarget = (context: HandlerContext, control: ControlContext) => Target;

export interface ItemRoutes {
  readonly list: ControlHandler;
  readonly seed: ControlHandler;
  readonly reset: ControlHandler;
  readonly get: ControlHandler;
  readonly remove: ControlHandler;
}

/** The resource named in the path and the collection its parent parameters choose. */
const resourceInPath: FindTarget = ({ pathParameters, request }, control) => {
  const name = pathParameters.resource ?? '';
  const resource = control.resources.resources.find((candidate) => candidate.name === name);
  if (!resource) {
    const names = control.resources.resources.map((candidate) => candidate.name);
    return { ok: false, refusal: notFound(`no resource is named "${name}"; the resources served are: ${names.length > 0 ? names.join(', ') : 'none'}`) };
  }
  return inCollection(resource, request.query, `item of ${name}`);
};

/** The collection of `resource` its parent parameters (in `query`) choose. */
export function inCollection(resource: Resource, query: HandlerContext['request']['query'], noun: string): Target {
  const values: string[] = [];
  for (const parameter of resource.parentParameters) {
    const value = query[parameter];
    if (typeof value !== 'string' || value === '') {
      const all = resource.parentParameters.map((p) => `${p}=…`).join('&');
      return { ok: false, refusal: refused('schemaViolation', `${resource.name} is nested: name its parent with the query parameter ${parameter} (${all})`) };
    }
    values.push(value);
  }
  const parents = resource.parentParameters.map((parameter, index) => `&${encodeURIComponent(parameter)}=${encodeURIComponent(values[index] ?? '')}`).join('');
  return { ok: true, resource, key: collectionKey(resource, values), parents, noun };
}

/**
 * An item as the control API answers it: its identifier property first (a plant created as
 * {"name","id"} reads {"id","name"}, as plants always have), the others in the order stored; a
 * user's password (sealed, or in clear as seeded) shown as "***" (docs/sign-in.md).
 */
function itemJson(item: Item, property: string): string {
  return maskBody(orderedItemJson(item, property));
}

function orderedItemJson(item: Item, property: string): string {
  const { fields } = item;
  // Most items hold it first already, and are answered as they are.
  if (!Object.hasOwn(fields, property) || firstKey(fields) === property) return toJsonText(fields as JsonValue);
  const { [property]: identifier, ...rest } = fields;
  const others = toJsonText(rest as JsonValue);
  return `{${JSON.stringify(property)}:${toJsonText(identifier as JsonValue)}${others === '{}' ? '' : `,${others.slice(1, -1)}`}}`;
}

function firstKey(fields: object): string | undefined {
  for (const key in fields) return key;
  return undefined;
}

/** The five routes over the collections `find` names. */
export function itemRoutes(find: FindTarget): ItemRoutes {
  /** The collection's store in the tenant, if the tenant exists: a read never makes one. */
  const existing = (context: HandlerContext, control: ControlContext, key: CollectionKey) =>
    control.stores.existing(context.tenant).then((tenant) => tenant?.collection(key));

  /** The item the path names, read by the identifier's type (an int64 exactly). */
  function itemTarget(context: HandlerContext, control: ControlContext): (Target & { ok: true; id: ItemKey }) | { ok: false; refusal: Outcome } {
    const target = find(context, control);
    if (!target.ok) return target;
    const key = keyOfText(target.resource.identifier, context.pathParameters.id ?? '');
    // Not an id the resource can have: invalidId, as the served API refuses such a path segment.
    if (!key.ok) return { ok: false, refusal: refused('invalidId', `${target.resource.name}: ${key.reason}`) };
    return { ...target, id: key.key };
  }

  const noItem = ({ noun, resource }: { noun: string; resource: Resource }, id: ItemKey) =>
    notFound(`no ${noun} has ${resource.identifier.property} ${keyText(id)}`);

  return {
    async list(context, control) {
      const target = find(context, control);
      if (!target.ok) return target.refusal;
      const page = pageQuery(context.request.query);
      if (!page.ok) return page.refusal;
      const loaded = await durably(existing(context, control, target.key));
      if (!loaded.ok) return loaded.refusal;
      const store = loaded.value;
      const read =
        store &&
        (async (cursor: string | undefined, limit: number) => {
          const chunk = await store.list({ cursor, limit });
          return { texts: chunk.items.map((item) => itemJson(item, target.resource.identifier.property)), next: chunk.next };
        });
      return pagedAnswer(read, page, (cursor) => `${context.request.path}?limit=${page.limit}&cursor=${cursor}${target.parents}`);
    },

    /**
     * Stores many items at once, all or nothing (with --data-dir, one log record): each is checked by
     * its resource's schema first, and a batch with one bad item stores none. Keys already stored (or
     * repeated in the batch) are left out and reported; a server-assigned integer key is taken as
     * given, and the allocation sequence moves past it.
     */
    async seed(context, control) {
      const target = find(context, control);
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
      return json(200, `{"created":${created},"duplicates":[${duplicates.map(keyText).join(',')}]}`);
    },

    async reset(context, control) {
      const target = find(context, control);
      if (!target.ok) return target.refusal;
      const result = await durably(existing(context, control, target.key).then((store) => store?.reset()));
      return result.ok ? noContent() : result.refusal;
    },

    async get(context, control) {
      const target = itemTarget(context, control);
      if (!target.ok) return target.refusal;
      const read = await durably(existing(context, control, target.key).then((store) => store?.get(target.id)));
      if (!read.ok) return read.refusal;
      return read.value ? json(200, itemJson(read.value, target.resource.identifier.property)) : noItem(target, target.id);
    },

    async remove(context, control) {
      const target = itemTarget(context, control);
      if (!target.ok) return target.refusal;
      const deleted = await durably(existing(context, control, target.key).then((store) => store?.delete(target.id)));
      if (!deleted.ok) return deleted.refusal;
      return deleted.value ? noContent() : noItem(target, target.id);
    },
  };
}

const routes = itemRoutes(resourceInPath);
export const listItems = routes.list;
export const seedItems = routes.seed;
export const resetItems = routes.reset;
export const getItem = routes.get;
export const deleteItem = routes.remove;
