/**
 * Where a request names an item's property otherwise than the item does, in case and separators
 * only: every Twilio API takes `FriendlyName` in a create's form and answers `friendly_name`, so a
 * server holds the one as the other. One reading for serve (what a create or change stores, what a
 * list filter compares, what a mocked answer says back: handlers/resource/held-only.ts,
 * list-parameters.ts, handlers/mock-echo.ts, and which POST on an item is its update: infer.ts) and
 * for verify (what an answer must say back: checks/response-reflects-request.ts).
 *
 * A request name maps only where the item does not declare that name itself, and exactly one item
 * property has the same letters and digits (case aside) and is not itself a name of the request.
 */
import { holdsOf, type Holds } from '../conformance/held-value.js';
import { requestBodySchema, type Operation } from '../openapi/operation.js';
import { wrappedItem } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';
import type { Resource } from './model.js';

/** Letters and digits, lower case: `FriendlyName`, `friendly_name` and `friendly-name` are one. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Each request name the item holds under another name → that item name; empty where all names agree. */
export function heldNames(requestNames: Iterable<string>, itemNames: Iterable<string>): ReadonlyMap<string, string> {
  const items = [...itemNames];
  const requests = new Set(requestNames);
  const mapped = new Map<string, string>();
  const declared = new Set(items);
  for (const name of requests) {
    if (declared.has(name)) continue;
    const key = nameKey(name);
    const matches = items.filter((item) => nameKey(item) === key && !requests.has(item));
    if (matches.length === 1) mapped.set(name, matches[0] as string);
  }
  return mapped;
}

/** The request body's schema (the JSON one, else a form or multipart: core's requestBodySchema), the item inside its envelope. */
function requestItemSchema(operation: Pick<Operation, 'request'>, resource: Resource): unknown {
  const schema = requestBodySchema(operation);
  return wrappedItem(schema, resource.envelope?.request) ?? schema;
}

/** A request property the item holds under another name, and whether the item's declaration holds a value sent (undefined: any). */
export interface HeldName {
  readonly to: string;
  readonly holds: Holds | undefined;
}

/**
 * The renames for `operation`'s request body into `resource`'s item, each with the held-value rule
 * (core/conformance/held-value.ts): Twilio's `IgnoreCapacity` is text ("true", "1", "yes") and its
 * `ignore_capacity` a boolean, which a server makes of the text as a stand-in cannot know.
 */
export function heldNamesOf(resource: Resource, operation: Pick<Operation, 'request'> & object): ReadonlyMap<string, HeldName> {
  const found = new Map<string, HeldName>();
  if (resource.itemSchema === undefined) return found;
  const item = objectShape(resource.itemSchema, { direction: 'response' }).properties;
  const request = objectShape(requestItemSchema(operation, resource), { direction: 'request' }).properties;
  for (const [from, to] of heldNames(request.keys(), item.keys())) found.set(from, { to, holds: holdsOf(item.get(to), request.get(from), operation) });
  return found;
}
