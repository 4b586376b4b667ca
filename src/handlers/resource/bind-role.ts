/**
 * An operation that plays a role for a resource, compiled once at bind time into its handler:
 * everything read off the document (answers' shapes, fills, checks, the collection key of a
 * top-level resource) is settled here, so a request only reads and writes the store.
 */
import type { IHttpOperation } from '@stoplight/types';
import type { OperationRole, Resource, ResourceRole } from '../../core/resources/model.js';
import { collectionKey, type ResourceStores } from '../../store/item-store.js';
import type { HandlerContext } from '../binding.js';
import { compileCreate } from './create.js';
import { compileDelete } from './delete.js';
import { compileList } from './list.js';
import type { CollectionOf, CreatedListener, RoleHandler, RoleParts } from './parts.js';
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
}

export function compileRole(operation: IHttpOperation, { resource, role }: OperationRole, options: RoleOptions): RoleHandler {
  return COMPILERS[role]({ operation, resource, collection: collectionOf(resource, options.stores), echoId: options.echoId, onCreated: options.onCreated });
}

/** The collection a request sees: one key for a top-level resource, one per parent for a nested one. */
export function collectionOf(resource: Resource, stores: ResourceStores): CollectionOf {
  if (resource.parentParameters.length === 0) {
    const key = collectionKey(resource);
    return async (context: HandlerContext) => (await stores.forTenant(context.tenant)).collection(key);
  }
  return async (context: HandlerContext) => {
    const values = resource.parentParameters.map((name) => context.pathParameters[name] ?? '');
    return (await stores.forTenant(context.tenant)).collection(collectionKey(resource, values));
  };
}
