/**
 * What a create, replace or update stores of its body: a property the item schema declares otherwise
 * than the request body does is kept only where its value fits the item's declaration
 * (core/conformance/held-value.ts). A stand-in cannot know how a server turns it into something
 * else, so it leaves it out rather than answer (and echo) what breaks the item schema; an update
 * leaves the stored value as it was (compileHeldChange). And a
 * property the request names otherwise than the item, in case and separators only (Twilio's
 * `FriendlyName` for `friendly_name`), is stored under the item's name (core/resources/held-names.ts).
 */
import type { IHttpOperation } from '@stoplight/types';
import { heldChecks } from '../../core/conformance/held-value.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import { heldNamesOf } from '../../core/resources/held-names.js';
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

/** An update's merged fields, given the stored ones and the body that changed them. */
export type HeldChange = (current: ItemFields, merged: ItemFields, body: ItemFields) => ItemFields;

/**
 * The held-only rule for an update, judged once merged: a JSON Merge Patch's object merges into the
 * stored one, so only the merged value says whether the item can hold it (a plain merge's is the
 * value sent). Where it cannot, the property stays as stored (Box's restore of a web link sends
 * `parent: {}`, a link's parent requires id and type): the rest of the change is made, not refused.
 */
export function compileHeldChange(resource: Resource, operation: IHttpOperation): HeldChange {
  const checked = [...heldChecks(resource, operation)];
  if (checked.length === 0) return (_current, merged) => merged;
  return (current, merged, body) => {
    let kept: Record<string, JsonValue> | undefined;
    for (const [name, holds] of checked) {
      if (!Object.hasOwn(body, name) || !Object.hasOwn(merged, name) || holds(merged[name] as JsonValue)) continue;
      kept ??= { ...(merged as Record<string, JsonValue>) };
      if (Object.hasOwn(current, name)) kept[name] = current[name] as JsonValue;
      else delete kept[name];
    }
    return kept ?? merged;
  };
}

/** The body with each property the request names otherwise stored under the item's name; the body itself where all names agree. */
export function compileHeldNames(resource: Resource, operation: IHttpOperation): HeldOnly {
  const renames = [...heldNamesOf(resource, operation)];
  if (renames.length === 0) return (fields) => fields;
  const byName = new Map(renames);
  return (fields) => {
    if (!renames.some(([from]) => Object.hasOwn(fields, from))) return fields;
    const held: Record<string, JsonValue> = {};
    for (const [name, value] of Object.entries(fields as Record<string, JsonValue>)) {
      const renamed = byName.get(name);
      if (renamed === undefined) held[name] = value;
      // A value the item's declaration cannot hold is left out, as held-only leaves it (a server turns it into something else).
      else if (renamed.holds === undefined || renamed.holds(value)) held[renamed.to] = value;
    }
    return held;
  };
}
