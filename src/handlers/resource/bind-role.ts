/**
 * An operation that plays a role for a resource, compiled once at bind time into its handler:
 * everything read off the document (answers' shapes, fills, checks, the collection key of a
 * top-level resource) is settled here, so a request only reads and writes the store.
 */
import type { IHttpOperation } from '@stoplight/types';
import type { OperationRole, Resource, ResourceRole } from '../../core/resources/model.js';
import { collectionKey, type ResourceStores } from '../../store/item-store.js';
import type { HandlerContext } from '../../http/binding.js';
import { compileCreate } from './create.js';
import { compileDelete } from './delete.js';
import { compileList } from './list.js';
import { failure } from '../../core/errors.js';
import { keyText } from './identifier.js';
import { pathKey, singular, type CollectionOf, type CreatedListener, type RoleHandler, type RoleParts } from './parts.js';
import { compileRead } from './read.js';
import { compileReplace } from './replace.js';
import { compileUpdate } from './update.js';

const COMPILERS: Readonly<Record<ResourceRole, (parts: RoleParts) => RoleHandler>> = {
  create: compileCreate,
  list: compileList,
  read: compileRead,
  replace: compileReplace,
  update: compileUpdate,
  delete: compileDelete,
};

export interface RoleOptions {
  readonly stores: ResourceStores;
  readonly echoId: boolean;
  readonly onCreated?: CreatedListener | undefined;
  /** The model's resources: a nested create looks its parent up among them. */
  readonly resources?: readonly Resource[] | undefined;
}

export function compileRole(operation: IHttpOperation, { resource, role }: OperationRole, options: RoleOptions): RoleHandler {
  const declares404 = operation.responses.some((response) => response.code === '404');
  const missingParent = role === 'create' && declares404 ? missingParentOf(resource, options.resources ?? [], options.stores) : undefined;
  return COMPILERS[role]({
    operation,
    resource,
    collection: collectionOf(resource, options.stores),
    echoId: options.echoId,
    onCreated: options.onCreated,
    missingParent,
  });
}

/**
 * A nested resource's parent item check, for a create that declares 404: the resource whose item
 * path is this collection path's prefix ('/owners/{ownerId}' for '/owners/{ownerId}/pets'). A create
 * that declares no 404 stores under any parent id, as before: an undeclared 404 would break the
 * document (verify's cases draw parent ids without creating the parent). None either when the
 * document serves no such item path: then nothing says what a parent is.
 */
function missingParentOf(resource: Resource, resources: readonly Resource[], stores: ResourceStores): RoleParts['missingParent'] {
  if (resource.parentParameters.length === 0) return undefined;
  const prefix = resource.collectionPath.slice(0, resource.collectionPath.lastIndexOf('/'));
  const parent = resources.find((candidate) => candidate !== resource && candidate.itemPath === prefix);
  if (parent === undefined) return undefined;
  const parentCollection = collectionOf(parent, stores);
  return async (context) => {
    const named = pathKey(parent, context);
    if ('refusal' in named) return named.refusal;
    const found = await (await parentCollection(context)).get(named.key);
    return found === undefined
      ? failure('itemNotFound', `no ${singular(parent)} with id ${keyText(named.key)}; a ${singular(resource)} is created under one that exists`)
      : undefined;
  };
}

/** The collection a request sees: one key for a top-level resource, one per parent for a nested one. */
export function collectionOf(resource: Resource, stores: ResourceStores): CollectionOf {
  if (resource.parentParameters.length === 0) {
    const key = collectionKey(resource);
    // A then, not an async frame: every request of a top-level resource comes here.
    return (context: HandlerContext) => stores.forTenant(context.tenant).then((tenant) => tenant.collection(key));
  }
  return async (context: HandlerContext) => {
    const values = resource.parentParameters.map((name) => context.pathParameters[name] ?? '');
    return (await stores.forTenant(context.tenant)).collection(collectionKey(resource, values));
  };
}
