/**
 * Whether a value sent under a property can be held, as sent, by the item's own declaration of that
 * property. Most documents declare a property alike on the way in and out; some do not (Ory Kratos's
 * `credentials`: `{password: {config: {password}}}` in a create, a map of `{type, identifiers, …}` in
 * an identity), and a server turns such a value into something else. One rule for both sides:
 * `serve` stores such a value only where it fits (handlers/resource/held-only.ts), and `verify`
 * expects it back only where it fits (response-reflects-request, the lifecycle's update step).
 */
import type { JsonValue } from '../json/exact-json.js';
import { isSuccess, jsonRequestBody, type Operation } from '../openapi/operation.js';
import { compileBodyCheck, type BodyCheck } from '../prism/adapter.js';
import type { Resource } from '../resources/model.js';
import { wrappedItem } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';
import { sameSchema } from '../schema/same-schema.js';
import { typeOf } from '../schema/types.js';

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

/**
 * The properties the resource's item, or `operation`'s own success answer, declares otherwise than
 * its request body (inside their envelopes), each with its check; empty in most documents. The answer
 * counts too: it is what shows the value back (Box's taxonomy create takes any `key` text and answers
 * a `key` of a pattern, while its item, read from a list, declares none).
 */
export function heldChecks(resource: Resource, operation: Pick<Operation, 'request' | 'responses'> & object): ReadonlyMap<string, Holds> {
  return heldChecksOfBody(resource, jsonRequestBody(operation)?.schema, operation, successItems(resource, operation));
}

/** heldChecks for the request body schema `body` (a resource's createSchema), also against `answers` (item schemas an operation answers with). */
export function heldChecksOfBody(resource: Resource, body: unknown, operation?: object, answers: readonly unknown[] = []): ReadonlyMap<string, Holds> {
  const found = new Map<string, Holds>();
  const declarations = [resource.itemSchema, ...answers]
    .filter((schema) => schema !== undefined)
    .map((schema) => objectShape(schema, { direction: 'response' }).properties);
  if (declarations.length === 0) return found;
  for (const [name, sentAs] of objectShape(wrappedItem(body, resource.envelope?.request) ?? body, { direction: 'request' }).properties) {
    const holds = declarations.flatMap((declared) => holdsOf(declared.get(name), sentAs, operation) ?? []);
    if (holds.length > 0) found.set(name, holds.length === 1 ? (holds[0] as Holds) : (value) => holds.every((fits) => fits(value)));
  }
  return found;
}

/** The item schemas of `operation`'s success answers (inside the resource's answer envelope), where they are objects. */
function successItems(resource: Resource, operation: Pick<Operation, 'responses'>): unknown[] {
  const items: unknown[] = [];
  for (const response of operation.responses) {
    if (!isSuccess(Number(response.code))) continue;
    for (const content of response.contents ?? []) {
      if (content.schema === undefined) continue;
      const item = wrappedItem(content.schema, resource.envelope?.answer) ?? content.schema;
      if (typeOf(item) === 'object') items.push(item);
    }
  }
  return items;
}
