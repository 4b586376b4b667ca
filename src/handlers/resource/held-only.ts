/**
 * What a create or replace stores of its body: a property the item schema declares otherwise than
 * the request body does is kept only where its value fits the item's declaration
 * (core/conformance/held-value.ts). A stand-in cannot know how a server turns it into something
 * else, so it leaves it out rather than answer (and echo) what breaks the item schema.
 */
import type { IHttpOperation } from '@stoplight/types';
import { heldChecks } from '../../core/conformance/held-value.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { Resource } from '../../core/resources/model.js';
import type { ItemFields } from '../../store/item-store.js';

export type HeldOnly = (fields: ItemFields) => ItemFields;

/** Properties declared alike, as in most documents, cost nothing. */
export function compileHeldOnly(resource: Resource, operation: IHttpOperation): HeldOnly {
  const checked = [...heldChecks(resource, operation)];
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
