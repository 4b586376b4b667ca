/**
 * What every role's handler is compiled from, and the small things they share: the declared
 * success answer, the item a path names, the collection a request sees, refusals worded for the
 * resource, and store failures turned into refusals instead of thrown.
 */
import type { IHttpOperation } from '@stoplight/types';
import { failure, storageFailure, type Failure } from '../../core/errors.js';
import { isJsonMediaType, mediaTypeOf } from '../../core/http/media-type.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemKey, Resource } from '../../core/resources/model.js';
import type { ItemFields, ItemStore } from '../../store/item-store.js';
import type { TenantId } from '../../store/tenants.js';
import type { HandlerContext } from '../../http/binding.js';
import { JSON_HEADERS, type Answer, type Outcome } from '../../http/answer.js';
import { keyFromPath, keyText } from './identifier.js';
import { declaredResponse, type BodySchema as Schema } from '../../core/openapi/operation.js';
import { unwrapValue, wrappedItem } from '../../core/schema/envelope.js';
import { compileHeldNames, compileHeldOnly } from './held-only.js';

/** The collection a request reads and writes: its tenant's, under its parents' values for a nested resource. */
export type CollectionOf = (context: HandlerContext) => Promise<ItemStore>;

export interface RoleParts {
  readonly operation: IHttpOperation;
  readonly resource: Resource;
  readonly collection: CollectionOf;
  /** --echo-id: answers also carry the identifier where their schema leaves it out. */
  readonly echoId: boolean;
  /** Told of each item created (its fields as stored), after the store took it: webhooks are sent from here. */
  readonly onCreated?: CreatedListener | undefined;
  /** A nested resource's create: why its parent item is missing (the refusal), or undefined when it exists (bind-role.ts). */
  readonly missingParent?: ((context: HandlerContext) => Promise<Failure | undefined>) | undefined;
}

export type CreatedListener = (resource: Resource, fields: ItemFields, tenant: TenantId) => void;

export type RoleHandler = (context: HandlerContext) => Promise<Outcome>;

/** The success answer the operation declares: its status, JSON schema and content type. */
export interface SuccessAnswer {
  readonly status: number;
  /** undefined: the answer has no body (204, or no JSON content declared). */
  readonly schema: Schema | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The status a role answers with: the first of `preferred` the operation declares, else its lowest
 * declared 2xx, else 200 (a document that declares only `default`).
 */
export function successAnswer(operation: IHttpOperation, preferred: readonly number[] = []): SuccessAnswer {
  const codes = operation.responses.map((response) => Number(response.code)).filter((code) => code >= 200 && code < 300);
  const status = preferred.find((code) => codes.includes(code)) ?? (codes.length > 0 ? Math.min(...codes) : 200);
  if (NO_BODY_STATUSES.has(status)) return { status, schema: undefined, headers: {} };
  const response = declaredResponse(operation, status);
  const contents = response?.contents ?? [];
  const content = contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => isJsonMediaType(mediaTypeOf(c.mediaType) ?? ''));
  if (content === undefined) return { status, schema: undefined, headers: {} };
  const headers = content.mediaType === 'application/json' ? JSON_HEADERS : Object.freeze({ 'content-type': content.mediaType });
  return { status, schema: content.schema ?? {}, headers };
}

export function answer(status: number, headers: Readonly<Record<string, string>>, body: string): Outcome {
  const answered: Answer = { status, headers, body };
  return { ok: true, answer: answered };
}

export function refuse(refusal: Failure): Outcome {
  return { ok: false, failure: refusal };
}

/** The resource's item in the singular, for messages: 'plants' → 'plant', 'owners.pets' → 'pet'. */
export function singular(resource: Pick<Resource, 'name'>): string {
  const name = resource.name.split('.').pop() ?? resource.name;
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(s|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/[^su]s$/.test(name)) return name.slice(0, -1);
  return name;
}

export function notFound(resource: Resource, key: ItemKey): Failure {
  return failure('itemNotFound', `no ${singular(resource)} with id ${keyText(key)}`);
}

/**
 * The key the item path names, or the refusal of a segment that names no item. The parameter's
 * schema has already let the segment through, so one outside the identifier's own bounds (petId 0
 * where the parameter has no minimum but Pet.id has minimum 1, a plain string parameter carrying a
 * uuid, digits beyond int64 where the parameter has no format) is an id no item has: itemNotFound,
 * as for any unknown id. Only a number spelled other than canonically ("007", "+7", "-0", "1e3",
 * "7.0": the parameter's check reads them as integers) is refused as no identifier: an item has one text.
 */
/** A number as JSON or a query string may spell it: sign, digits, fraction, exponent. */
const NUMBER_TEXT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

export function pathKey(resource: Resource, context: HandlerContext): { readonly key: ItemKey } | { readonly refusal: Failure } {
  const parameter = resource.identifier.parameter ?? resource.identifier.property;
  const text = context.pathParameters[parameter] ?? '';
  const key = keyFromPath(resource.identifier.type, text);
  if (key !== undefined) return { key };
  if (resource.identifier.type.kind === 'integer' && NUMBER_TEXT.test(text) && !/^(?:0|-?[1-9][0-9]*)$/.test(text)) {
    return { refusal: failure('invalidId', `${JSON.stringify(text)} is not an identifier of a ${singular(resource)}: ${typeRule(resource)}`) };
  }
  const shown = /^-?[0-9]+$/.test(text) ? text : JSON.stringify(text);
  return { refusal: failure('itemNotFound', `no ${singular(resource)} with id ${shown}`) };
}

function typeRule(resource: Resource): string {
  const { type } = resource.identifier;
  switch (type.kind) {
    case 'integer':
      return `an integer from ${type.minimum} to ${type.maximum}, in decimal without leading zeros or "+"`;
    case 'uuid':
      return 'a uuid (8-4-4-4-12 hexadecimal digits)';
    default:
      return 'a non-empty text';
  }
}

/**
 * Runs a store step; a store that fails (a durable write, a tenant that cannot load) answers
 * 503 with the cause: a change answers only once it is final, so nothing was changed.
 */
export function guarded(step: () => Promise<Outcome>): Promise<Outcome> {
  // No async wrapper: one handler on the step's promise (every create and delete comes here).
  try {
    return step().catch(storeFailed);
  } catch (error) {
    return Promise.resolve(storeFailed(error));
  }
}

function storeFailed(error: unknown): Outcome {
  return refuse(storageFailure('the store could not do it, so nothing was changed', error));
}

/**
 * The body a role reads: an optional request body left out reads as {} (the Swagger Petstore 3's
 * placeOrder and updateUser declare theirs optional): an item of no given properties, a patch that
 * changes nothing. A required body left out never gets here (the request validator refuses it).
 */
export function compileBodyOf(operation: IHttpOperation, resource?: Resource): (body: unknown) => unknown {
  const optional = operation.request?.body?.required !== true;
  const property = requestEnvelope(operation, resource);
  // An enveloped body ({"article": {...}}): the item is inside; a body without it is no item (undefined, refused by the caller).
  if (property !== undefined) return (body) => (body === undefined && optional ? {} : unwrapValue(body, property));
  return (body) => (body === undefined && optional ? {} : body);
}

/** The property this operation's request body wraps the item in, when the resource's bodies have an envelope and this body declares it. */
export function requestEnvelope(operation: IHttpOperation, resource: Resource | undefined): string | undefined {
  const property = resource?.envelope?.request;
  return wrappedItem(requestSchema(operation), property) === undefined ? undefined : property;
}

/** The operation's JSON request body schema. */
export function requestSchema(operation: IHttpOperation): unknown {
  const contents = operation.request?.body?.contents ?? [];
  return contents.find((content) => content.schema !== undefined && isJsonMediaType(mediaTypeOf(content.mediaType) ?? ''))?.schema;
}

/** The item schema a client writes in this operation's request body: inside the envelope when it has one (which properties the server leaves to the client). */
export function requestSchemaOf(operation: IHttpOperation, resource: Resource): unknown {
  const schema = requestSchema(operation);
  return wrappedItem(schema, resource.envelope?.request) ?? schema;
}

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a replace or update reads first: the item its path names and the JSON object that changes it, or why it is refused. */
/** The item the path names and the JSON Patch (an array of operations) to apply to it. */
export function compileJsonPatchOf(
  operation: IHttpOperation,
  resource: Resource,
): (context: HandlerContext) => { readonly key: ItemKey; readonly body: JsonValue[] } | { readonly refusal: Failure } {
  const bodyOf = compileBodyOf(operation, resource);
  const optional = operation.request?.body?.required !== true;
  return (context) => {
    const named = pathKey(resource, context);
    if ('refusal' in named) return named;
    // An optional patch left out changes nothing, as the empty one.
    const body = context.body === undefined && optional ? [] : bodyOf(context.body);
    if (!Array.isArray(body)) return { refusal: failure('badRequest', `a ${singular(resource)} is updated by a JSON Patch (an array of operations)`) };
    return { key: named.key, body: body as JsonValue[] };
  };
}

export function compileChangeOf(
  operation: IHttpOperation,
  resource: Resource,
  verb: 'replaced' | 'updated',
): (context: HandlerContext) => { readonly key: ItemKey; readonly body: ItemFields } | { readonly refusal: Failure } {
  const bodyOf = compileBodyOf(operation, resource);
  // A replace's body is the item (item-check.ts); an update's is a change, judged once merged.
  const heldOnly = verb === 'replaced' ? compileHeldOnly(resource, operation) : undefined;
  // Both verbs: a property named otherwise (Twilio's FriendlyName) changes the item's own (friendly_name).
  const heldNames = compileHeldNames(resource, operation);
  return (context) => {
    const named = pathKey(resource, context);
    if ('refusal' in named) return named;
    const body = bodyOf(context.body);
    if (!isObject(body)) return { refusal: failure('badRequest', `a ${singular(resource)} is ${verb} by a JSON object`) };
    return { key: named.key, body: heldNames(heldOnly === undefined ? (body as ItemFields) : heldOnly(body as ItemFields)) };
  };
}
