/**
 * One collection's items in Redis: the ItemStore every replica on the same Redis shares. Each
 * operation is one script (item-scripts.ts), so it is atomic across replicas; an update, whose
 * change is JavaScript, reads, changes and writes back only if nothing changed meanwhile (compare
 * and set), retried. A key is encoded so an integer and a string key never meet: 1n is "i1", "1" is "s1".
 */
import { readRequestJson, toJsonText, type JsonValue } from '../../core/json/exact-json.js';
import type { Item, ItemFields, ItemKey, ItemPage, ItemPageRequest, ItemStore } from '../item-store.js';
import { sameJson } from '../memory-store.js';
import type { RedisConnection } from './connection.js';
import { CREATE, DELETE, PAGE, REPLACE, RESET, SEED } from './item-scripts.js';

/** The keys of one collection, in the order the scripts name them (see item-scripts.ts). */
export type CollectionKeys = readonly [items: string, order: string, sequence: string, allocated: string, seeded: string, counts: string];

/** The most times an update is tried again when another replica changed the item meanwhile. */
const UPDATE_ATTEMPTS = 64;

export function fieldOf(key: ItemKey): string {
  return typeof key === 'bigint' ? `i${key}` : `s${key}`;
}

export function keyOfField(field: string): ItemKey {
  return field.startsWith('i') ? BigInt(field.slice(1)) : field.slice(1);
}

function itemOf(field: string, json: string): Item {
  const parsed = readRequestJson(json);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    throw new Error(`the shared store holds an unreadable item under ${field}`);
  return Object.freeze({ id: keyOfField(field), fields: Object.freeze(parsed.value) as ItemFields });
}

const text = (fields: ItemFields) => toJsonText(fields as JsonValue);

export interface RedisItemsOptions {
  /** A seed is taken only if the collection was never seeded (once per store, whatever the replicas). */
  readonly seedOnce?: boolean;
}

export function createRedisItems(redis: RedisConnection, keys: CollectionKeys): ItemStore & { seedOnce(items: readonly Item[]): Promise<boolean> } {
  const run = (lua: string, args: readonly (string | number)[]) => redis.script(lua, keys, args);

  async function seed(items: readonly Item[], once: boolean) {
    const args: string[] = [once ? '1' : '0'];
    for (const item of items) args.push(fieldOf(item.id), text(item.fields));
    const taken = (await run(SEED, args)) as string[];
    if (taken[0] === 'seeded-before') return undefined;
    return { created: items.length - taken.length, duplicates: taken.map(keyOfField) };
  }

  const store = {
    async create(item: Item) {
      const field = fieldOf(item.id);
      const answer = (await run(CREATE, [field, text(item.fields)])) as [string, string?];
      if (answer[0] === '1') return { ok: true as const, item: Object.freeze(item) };
      return { ok: false as const, reason: 'duplicate-id' as const, existing: itemOf(field, answer[1] ?? '{}') };
    },
    async allocate() {
      // INCR itself, not in a script: Lua would read the reply as a double and round it past 2^53.
      return BigInt(await redis.call((client) => client.incr(keys[3])));
    },
    async get(id: ItemKey) {
      const field = fieldOf(id);
      const json = await redis.call((client) => client.hget(keys[0], field));
      return json === null ? undefined : itemOf(field, json);
    },
    async replace(item: Item) {
      const answer = (await run(REPLACE, [fieldOf(item.id), '', text(item.fields)])) as string[];
      return answer[0] === '1' ? Object.freeze(item) : undefined;
    },
    async update(id: ItemKey, change: (current: Item) => Item) {
      const field = fieldOf(id);
      let json = await redis.call((client) => client.hget(keys[0], field));
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS && json !== null; attempt += 1) {
        const next = change(itemOf(field, json));
        if (next.id !== id) throw new Error(`an update of item ${String(id)} must keep its key, not change it to ${String(next.id)}`);
        const answer = (await run(REPLACE, [field, json, text(next.fields)])) as string[];
        if (answer[0] === '1') return Object.freeze(next);
        if (answer[0] === '0') return undefined;
        json = answer[1] ?? null;
      }
      if (json === null) return undefined;
      throw new Error(`item ${String(id)} changed ${UPDATE_ATTEMPTS} times while it was being updated; try again`);
    },
    async delete(id: ItemKey) {
      return String(await run(DELETE, [fieldOf(id)])) === '1';
    },
    async reset() {
      await run(RESET, []);
    },
    async seed(items: readonly Item[]) {
      return (await seed(items, false)) ?? { created: 0, duplicates: [] };
    },
    /** The seed, unless this collection was seeded before (by any replica); true when it was taken now. */
    async seedOnce(items: readonly Item[]) {
      return (await seed(items, true)) !== undefined;
    },
    list: (request: ItemPageRequest) => page(run, request),
    async count() {
      return Number(await redis.call((client) => client.hlen(keys[0])));
    },
  };
  return store;
}

/**
 * A page as the memory store answers it (item-table.ts `page`): items after the cursor that the
 * filter keeps, `skip` passed over, at most `limit`; `next` (the last sequence looked at) when more
 * follow. Rows are read in batches, so a page costs about its own size plus what a filter passes over.
 */
async function page(run: (lua: string, args: readonly (string | number)[]) => Promise<unknown>, request: ItemPageRequest): Promise<ItemPage> {
  const { limit, skip = 0, where } = request;
  const wanted = where === undefined ? [] : Object.entries(where);
  const keep = (item: Item) => wanted.every(([property, value]) => sameJson(item.fields[property], value));
  const batch = Math.min(500, Math.max(16, limit + skip + 1));
  const items: Item[] = [];
  let after = request.cursor === undefined ? 0 : Number(request.cursor);
  let toSkip = skip;
  for (;;) {
    const rows = (await run(PAGE, [after, batch])) as string[];
    for (let index = 0; index < rows.length; index += 3) {
      const [field, sequence, json] = [rows[index] as string, rows[index + 1] as string, rows[index + 2] as string];
      if (items.length >= limit) return items.length > 0 ? { items, next: String(after) } : { items };
      after = Number(sequence);
      if (json === '') continue;
      const item = itemOf(field, json);
      if (!keep(item)) continue;
      if (toSkip > 0) toSkip -= 1;
      else items.push(item);
    }
    if (rows.length < batch * 3) return { items };
  }
}
