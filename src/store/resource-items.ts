/**
 * Items of a resource as the store keeps them: keyed by the identifier property of a JSON object,
 * read by the one identifier reader (core/schema/identifier.ts) that the API's handlers use too,
 * so an item seeded or stored through the control API is the one the API's path names (a uuid in
 * lower case, an integer exactly).
 */
import type { JsonValue } from '../core/json/exact-json.js';
import type { Resource } from '../core/resources/model.js';
import { keyOfValue, valueOfKey } from '../core/schema/identifier.js';
import type { Item, ItemFields } from './item-store.js';

export type ItemRead = { readonly ok: true; readonly item: Item } | { readonly ok: false; readonly reason: string };

/** A JSON object as an item of `resource`: keyed by its identifier property, which holds the key as the API answers it. */
export function itemOfValue(resource: Pick<Resource, 'identifier'>, value: JsonValue): ItemRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: `an item must be a JSON object, not ${describe(value)}` };
  const { property } = resource.identifier;
  const key = keyOfValue(resource.identifier, value[property]);
  if (!key.ok) return key;
  const id = key.key;
  const held = valueOfKey(id);
  const fields: ItemFields = value[property] === held ? value : { ...value, [property]: held };
  return { ok: true, item: { id, fields } };
}

function describe(value: JsonValue | undefined): string {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
