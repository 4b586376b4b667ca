import type { IHttpOperation, HttpMethod } from '@stoplight/types';
import { compileCredentialCheck, isolatingToken } from '../auth/credential-check.js';
import { honourIssuedTokens, issuedUserOf } from '../auth/issued-tokens.js';
import type { IssuedTokens } from '../auth/issued-tokens.js';
import type { SignIn } from '../core/resources/sign-in.js';
import { operationRoles, roleKey, type OperationRole, type Resource, type ResourceModel } from '../core/resources/model.js';
import type { ResourceStores } from '../store/item-store.js';
import { SHARED_TENANT, tenantOfToken } from '../store/tenants.js';
import type { Binding, HandlerContext } from '../http/binding.js';
import { mockOperation } from './mock-operation.js';
import { compileRole } from './resource/bind-role.js';
import type { CreatedListener } from './resource/parts.js';
import { compileSignIn, type SignInBinding } from './sign-in/bind-sign-in.js';

export interface ApiBindingOptions {
  /** The document's resources: the operations that play a role for one are served from the store. */
  readonly model: ResourceModel;
  readonly stores: ResourceStores;
  readonly tokens: readonly string[];
  /** Answers also carry the identifier where their schema leaves it out (the seed's Plant has name and tag only). */
  readonly echoId: boolean;
  /** Each bearer token gets its own store and journal view. */
  readonly isolateByToken: boolean;
  /** Told of each item created (--webhook delivers the document's webhooks from here). */
  readonly onCreated?: CreatedListener | undefined;
  /** The server's issued tokens: where the model has a sign-in, it is served (docs/sign-in.md); absent: it is not. */
  readonly issued?: IssuedTokens | undefined;
  /** The refresh tokens issued beside them (absent: a refresh token is answered but never honoured). */
  readonly refreshTokens?: IssuedTokens | undefined;
  /** --token-lifetime: seconds every issued token lasts, whatever the answers declare. */
  readonly tokenLifetime?: number | undefined;
}

/** The operations served from the store, by "method path": what operationRoles makes of the model. */
export type RoleTable = ReadonlyMap<string, OperationRole>;

/**
 * The role an operation plays, if any; operations without one are mocked by prism. So are the
 * operations of a resource no request can put an item in (no create, no replace): its store would
 * stay empty, answering [] and 404 forever, where the document's examples say more.
 */
export function roleOf(operation: IHttpOperation, roles: RoleTable): OperationRole | undefined {
  const role = roles.get(roleKey(operation.method, operation.path));
  if (role === undefined) return undefined;
  const { create, replace } = role.resource.operations;
  return create !== undefined || replace !== undefined ? role : undefined;
}

/** Binds every operation of a document: one role table for all of them. */
export function apiBinder(options: ApiBindingOptions): (operation: IHttpOperation) => Binding {
  const roles = operationRoles(options.model);
  const signIn = signInBindingOf(options, roles);
  return (operation) => bindApiOperation(operation, roles, options, signIn);
}

/** The model's sign-in served on the stores, or undefined when no operation issues a credential. */
function signInBindingOf(options: ApiBindingOptions, roles: RoleTable): SignInBinding | undefined {
  const { model, issued } = options;
  if (model.signIn === undefined || issued === undefined) return undefined;
  const resourceNames = model.resources.map((resource) => resource.name);
  return compileSignIn({
    signIn: model.signIn,
    issued,
    refreshTokens: options.refreshTokens,
    stores: options.stores,
    usersResource: usersResourceOf(model.signIn, roles),
    resourceNames,
    tokenLifetimeSeconds: options.tokenLifetime,
  });
}

/** The resource whose create is the sign-up (a top-level one): its items are the users. */
export function usersResourceOf(signIn: SignIn, roles: RoleTable): Resource | undefined {
  const role = signIn.signUp === undefined ? undefined : roleOf(signIn.signUp, roles);
  return role?.role === 'create' && role.resource.parentParameters.length === 0 ? role.resource : undefined;
}

/**
 * Binds an operation of the served document: one that plays a role for a resource to that role's
 * handler on the store (unless the request asks for a Prism-style preference, which is answered
 * from the document without touching the store), everything else to prism's mocker.
 */
export function bindApiOperation(operation: IHttpOperation, roles: RoleTable, options: ApiBindingOptions, signIn?: SignInBinding): Binding {
  const mock = (context: HandlerContext) => mockOperation(operation, toPrismRequest(operation, context), context.preferences);
  const role = roleOf(operation, roles);
  const stateful =
    role &&
    compileRole(operation, role, {
      stores: options.stores,
      echoId: options.echoId,
      onCreated: options.onCreated,
      resources: options.model.resources,
    });
  const served = signIn?.handlerFor(operation, stateful) ?? stateful;
  return {
    authorize: honourIssuedTokens(compileCredentialCheck(operation, options.tokens), operation, options.tokens, signIn && options.issued),
    tenant: (credentials, headers) => {
      const token = options.isolateByToken ? isolatingToken(credentials, headers) : undefined;
      if (token === undefined) return SHARED_TENANT;
      // An issued token works where its user signed up (docs/sign-in.md, "Isolation"); found once
      // by the credential check, else (an open operation) looked up here.
      const tenant = issuedUserOf(credentials)?.tenant ?? signIn?.tenantOf(token);
      return tenant instanceof Promise ? tenant.then((found) => found ?? tenantOfToken(token)) : (tenant ?? tenantOfToken(token));
    },
    handle: served ? (context) => (context.preferences ? mock(context) : served(context)) : mock,
  };
}

function toPrismRequest(operation: IHttpOperation, { request, body }: HandlerContext) {
  return { method: operation.method as HttpMethod, url: { path: request.path, query: { ...request.query } }, headers: { ...request.headers }, body };
}
