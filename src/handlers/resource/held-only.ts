/**
 * What a create or replace stores of its body: a property the item schema declares otherwise than
 * the request body does is kept only where its value fits the item's declaration
 * (core/conformance/held-value.ts). A stand-in cannot know how a server turns it into something
 * else, so it leaves it out rather than answer (and echo) what breaks the item schema.
 */
import type { IHttpOperation } from '@stoplight/types';
import { holdsOf } from '../../core/conformance/held-value.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { Resource } from '../../core/resources/model.js';
import { objectShape } from '../../core/schema/properties.js';
import type { ItemFields } from '../../store/item-store.js';

export type HeldOnly = (fields: ItemFields) => ItemFields;

/** Properties declared alike, as in most documents, cost nothing. */
export function compileHeldOnly(resource: Resource, operation: IHttpOperation, requestItem: unknown): HeldOnly {
  if (resource.itemSchema === undefined) return (fields) => fields;
  const item = objectShape(resource.itemSchema, { direction: 'response' }).properties;
  const checked: Array<readonly [string, (value: JsonValue) => boolean]> = [];
  for (const [name, sentAs] of objectShape(requestItem, { direction: 'request' }).properties) {
    const holds = holdsOf(item.get(name), sentAs, operation);
    if (holds !== undefined) checked.push([name, holds]);
  }
  if (checked.length === 0) return (fields) => fields;
  return (fields) => {
    let kept: Record<string, JsonValue> | undefined;
    for (const [name, holds] of checked) {
      if (!Object.hasOwn(fields, name) || holds(fields[name] as JsonValue)) continue;
      kept ??= { ...(fields as Record<string, JsonValue>) };
      delete kept[name];
    }
    return kept ?? fields;
  };
}
