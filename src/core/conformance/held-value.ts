/**
 * Whether a value sent under a property can be held, as sent, by the item's own declaration of that
 * property. Most documents declare a property alike on the way in and out; some do not (Ory Kratos's
 * `credentials`: `{password: {config: {password}}}` in a create, a map of `{type, identifiers, …}` in
 * an identity), and a server turns such a value into something else. One rule for both sides:
 * `serve` stores such a value only where it fits (handlers/resource/held-only.ts), and `verify`
 * expects it back only where it fits (response-reflects-request, the lifecycle's update step).
 */
import type { JsonValue } from '../json/exact-json.js';
import { jsonRequestBody, type Operation } from '../openapi/operation.js';
import { compileBodyCheck, type BodyCheck } from '../prism/adapter.js';
import type { Resource } from '../resources/model.js';
import { wrappedItem } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';
import { sameSchema } from '../schema/same-schema.js';

/** Whether a value fits the held declaration. */
export type Holds = (value: JsonValue) => boolean;

const checks = new WeakMap<object, BodyCheck | null>();

/** The check of a value against `heldAs`, or undefined where `sentAs` declares it alike (every value sent fits). */
export function holdsOf(heldAs: unknown, sentAs: unknown, operation: object | undefined): Holds | undefined {
  if (typeof heldAs !== 'object' || heldAs === null || sameSchema(heldAs, sentAs)) return undefined;
  return (value) => {
    let check = checks.get(heldAs);
    // Compiled on the first value that needs it, not when an operation is read.
    if (check === undefined) checks.set(heldAs, (check = compileBodyCheck(heldAs, operation, 'request', 'value') ?? null));
    return check === null || (check(value) ?? []).length === 0;
  };
}

/** The properties the resource's item declares otherwise than `operation`'s request body (inside its envelope), each with its check; empty in most documents. */
export function heldChecks(resource: Resource, operation: Pick<Operation, 'request'> & object): ReadonlyMap<string, Holds> {
  return heldChecksOfBody(resource, jsonRequestBody(operation)?.schema, operation);
}

/** heldChecks for the request body schema `body` (a resource's createSchema). */
export function heldChecksOfBody(resource: Resource, body: unknown, operation?: object): ReadonlyMap<string, Holds> {
  const found = new Map<string, Holds>();
  if (resource.itemSchema === undefined) return found;
  const item = objectShape(resource.itemSchema, { direction: 'response' }).properties;
  for (const [name, sentAs] of objectShape(wrappedItem(body, resource.envelope?.request) ?? body, { direction: 'request' }).properties) {
    const holds = holdsOf(item.get(name), sentAs, operation);
    if (holds !== undefined) found.set(name, holds);
  }
  return found;
}
