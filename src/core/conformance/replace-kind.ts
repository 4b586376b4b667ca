/**
 * What a PUT on an item does, read from the document's shapes: a whole replace, or an update of
 * only the properties sent. Box's `PUT /folders/{folder_id}` requires nothing while a folder's create
 * requires `name` and `parent`: a body that may leave out what makes an item cannot be the whole
 * item, so what it leaves out stays. A PUT body requiring what the create requires (the Plant
 * Store's, DigitalOcean's autoscale pools) replaces, and so does one that creates (declares 201).
 * One reading for both sides: serve's replace (handlers/resource/replace.ts) merges by it, verify
 * expects by it (response-reflects-request, the lifecycle's replace step), and the start banner and
 * GET /__control/resources show it. docs/resources.md, "Roles".
 */
import { jsonRequestBody, type Operation } from '../openapi/operation.js';
import type { OperationRef, Resource } from '../resources/model.js';
import { wrappedItem } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';

/** replace: the body becomes the item; merge: the properties sent replace the stored ones, the others stay. */
export type ReplaceKind = 'replace' | 'merge';

/**
 * The kind of the PUT `operation` on `resource`'s items: merge where the item needs properties from
 * a client (its create body's required ones, else the item's writable required ones; the identifier
 * aside, the path gives it) and the PUT body requires none of them; replace otherwise, as before,
 * and always where the PUT creates an absent item (declares 201): what it creates is the body.
 */
export function replaceKind(resource: Resource, operation: Pick<Operation, 'request'> & { readonly responses?: Operation['responses'] }): ReplaceKind {
  if (operation.responses?.some((response) => response.code === '201') === true) return 'replace';
  const body = jsonRequestBody(operation)?.schema;
  if (body === undefined) return 'replace';
  const item = wrappedItem(body, resource.envelope?.request) ?? body;
  const sent = objectShape(item, { direction: 'request' });
  if (sent.properties.size === 0) return 'replace';
  const needed = neededFromClient(resource);
  return needed.length > 0 && !needed.some((name) => sent.required.has(name)) ? 'merge' : 'replace';
}

/** The kind of `resource`'s PUT, found among the document's `operations`; undefined where it has none. */
export function replaceKindOf(resource: Resource, operations: readonly Operation[]): ReplaceKind | undefined {
  const replace: OperationRef | undefined = resource.operations.replace;
  const operation = replace && operations.find((candidate) => candidate.method === replace.method && candidate.path === replace.path);
  return operation === undefined ? undefined : replaceKind(resource, operation);
}

/** The properties a whole item needs a client to give. */
function neededFromClient(resource: Resource): string[] {
  const id = resource.identifier.property;
  if (resource.createSchema !== undefined) {
    return [...objectShape(resource.createSchema, { direction: 'request' }).required].filter((name) => name !== id);
  }
  const shape = objectShape(resource.itemSchema);
  return [...shape.required].filter((name) => name !== id && !shape.readOnly.has(name));
}

/**
 * Whether a change of `role` keeps what it does not send: every update does (a PATCH, or a POST on
 * the item that is its update: Twilio's, Box's restore of a web link), and a PUT that updates only
 * what it sends. serve merges so; verify expects so (response-reflects-request, update-applied).
 */
export function keepsUnsent(resource: Resource, operation: Pick<Operation, 'request'>, role: 'update' | 'replace'): boolean {
  return role === 'update' || replaceKind(resource, operation) === 'merge';
}
