/**
 * The seed as the store takes it: each resource's items by collection, checked by the resource's
 * schema (as the control API's seed checks them) before anything is stored. A seed that names no
 * resource of the document, or holds a bad item, stops the start with a ConfigError naming it.
 */
import type { JsonValue } from '../core/json/exact-json.js';
import type { ResourceModel } from '../core/resources/model.js';
import type { Item, ItemKey } from '../store/item-store.js';
import { PLANTS, plantItem, type Plant } from '../store/plant-store.js';
import { itemOfValue } from '../store/resource-items.js';
import { narrow, parseInt64 } from '../core/json/int64.js';
import { keyText } from '../core/schema/identifier.js';
import type { Resource } from '../core/resources/model.js';
import type { SeedItems } from '../store/tenants.js';
import type { ItemCheck } from './item-checks.js';
import { ConfigError } from './options/config-error.js';

export function seedItemsOf(
  model: ResourceModel,
  plants: readonly Plant[],
  others: Readonly<Record<string, readonly JsonValue[]>>,
  check: ItemCheck,
): SeedItems {
  const seed: Record<string, readonly Item[]> = plants.length > 0 ? { [PLANTS]: plants.map(plantItem) } : {};
  for (const [name, values] of Object.entries(others)) {
    const resource = model.resources.find((candidate) => candidate.name === name);
    const names = model.resources.map((candidate) => candidate.name).join(', ') || 'none';
    if (!resource) throw new ConfigError(`the seed names "${name}", which is no resource of the document (its resources: ${names})`);
    if (resource.parentParameters.length > 0) {
      throw new ConfigError(
        `the seed names "${name}", a nested resource: its items belong to a parent, so seed them with POST /__control/resources/${name}/items?${resource.parentParameters.map((p) => `${p}=…`).join('&')}`,
      );
    }
    const items: Item[] = [];
    const seen = new Map<ItemKey, number>();
    values.forEach((given, index) => {
      const value = withIntegerId(resource, given);
      const problem = check(resource, value, `seed.${name}[${index}]`);
      if (problem !== undefined) throw new ConfigError(problem);
      const read = itemOfValue(resource, value);
      if (!read.ok) throw new ConfigError(`seed.${name}[${index}]: ${read.reason}`);
      const earlier = seen.get(read.item.id);
      if (earlier !== undefined)
        throw new ConfigError(
          `seed.${name}[${index}] has the ${resource.identifier.property} ${keyText(read.item.id)} of seed.${name}[${earlier}]; ids are unique`,
        );
      seen.set(read.item.id, index);
      items.push(read.item);
    });
    seed[name] = [...(seed[name] ?? []), ...items];
  }
  return seed;
}

/** A file may write an integer id as its digits in a string (for tools that cannot write big numbers): the integer it spells. */
function withIntegerId(resource: Resource, value: JsonValue): JsonValue {
  const { property, type } = resource.identifier;
  if (type.kind !== 'integer' || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const id = value[property];
  const exact = typeof id === 'string' ? parseInt64(id) : undefined;
  return exact === undefined ? value : { ...value, [property]: narrow(exact) };
}
