import type { IHttpOperation, HttpMethod } from '@stoplight/types';
import { compileCredentialCheck } from '../auth/credential-check.js';
import type { ResourceStores } from '../store/item-store.js';
import { SHARED_TENANT, tenantOfToken } from '../store/tenants.js';
import type { Binding, HandlerContext } from './binding.js';
import { createPlant } from './create-plant.js';
import { mockOperation } from './mock-operation.js';

export interface ApiBindingOptions {
  readonly stores: ResourceStores;
  readonly tokens: readonly string[];
  readonly echoId: boolean;
  /** Each bearer token gets its own store and journal view. */
  readonly isolateByToken: boolean;
}

/** The operationId the stand-in keeps state for; every other operation is mocked by prism. */
export const STATEFUL_OPERATION = 'createPlant';

/**
 * Binds an operation of the served document: createPlant to the plant store (unless the request
 * asks for a Prism-style preference, which is answered from the document without touching the
 * store), everything else to prism's mocker.
 */
export function bindApiOperation(operation: IHttpOperation, options: ApiBindingOptions): Binding {
  const mock = (context: HandlerContext) => mockOperation(operation, toPrismRequest(operation, context), context.preferences);
  return {
    authorize: compileCredentialCheck(operation, options.tokens),
    tenant: (credentials) => (options.isolateByToken && credentials.token !== undefined ? tenantOfToken(credentials.token) : SHARED_TENANT),
    handle:
      operation.iid === STATEFUL_OPERATION
        ? (context) => (context.preferences ? mock(context) : createPlant(context.body, options.stores.forTenant(context.tenant), { echoId: options.echoId }))
        : mock,
  };
}

function toPrismRequest(operation: IHttpOperation, { request, body }: HandlerContext) {
  return { method: operation.method as HttpMethod, url: { path: request.path, query: { ...request.query } }, headers: { ...request.headers }, body };
}
