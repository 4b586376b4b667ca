import type { Item, ItemKey, ItemPage } from './item-store.js';

/**
 * One collection's items as plain data: key → creation sequence, and the items by ascending
 * sequence (`order`/`sequences`), a deleted item leaving a hole until holes outnumber items. Replay
 * builds it and the store takes it over as it is, so a restart indexes a million items once, not
 * twice. A sequence is never reused (not even after a reset), so it is a stable paging cursor.
 * A Map keeps the keys 1n and "1" apart, as an integer and a string identifier are. An integer key
 * a double holds exactly is kept in the Map as that number (slotOf), which V8 hashes several times
 * faster than a bigint (every create looks its key up, then adds it); 1 and "1" stay apart all the same.
 * Read `byId` through has() and the functions below, never with an item's key directly.
 */
export interface ItemTable {
  readonly byId: Map<ItemKey | number, number>;
  order: (Item | undefined)[];
  sequences: number[];
  holes: number;
  nextSequence: number;
  /** The last number the collection's allocation sequence gave (0n: none yet); survives a reset. */
  allocated: bigint;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The Map's key for an item's key: the number an integer key is when a double holds it exactly, else the key itself. */
function slotOf(id: ItemKey): ItemKey | number {
  return typeof id === 'bigint' && id <= MAX_SAFE && id >= -MAX_SAFE ? Number(id) : id;
}

/** Whether the table holds an item with this key. */
export function has(table: ItemTable, id: ItemKey): boolean {
  return table.byId.has(slotOf(id));
}

export function createTable(): ItemTable {
  return { byId: new Map(), order: [], sequences: [], holes: 0, nextSequence: 1, allocated: 0n };
}

/** Where the first item with a sequence ≥ `sequence` is (or would be) in `order`. */
function indexOf(table: ItemTable, sequence: number): number {
  const { sequences } = table;
  let low = 0;
  let high = sequences.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sequences[middle] as number) < sequence) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function itemOf(table: ItemTable, id: ItemKey): Item | undefined {
  const sequence = table.byId.get(slotOf(id));
  return sequence === undefined ? undefined : table.order[indexOf(table, sequence)];
}

/** Adds an item whose key is not in the table. */
export function insert(table: ItemTable, item: Item): void {
  table.byId.set(slotOf(item.id), table.nextSequence);
  table.order.push(item);
  table.sequences.push(table.nextSequence);
  table.nextSequence += 1;
}

/** Puts `item` in the place of the stored item with its key (a replace keeps its place in the creation order). */
export function overwrite(table: ItemTable, item: Item): boolean {
  const sequence = table.byId.get(slotOf(item.id));
  if (sequence === undefined) return false;
  table.order[indexOf(table, sequence)] = item;
  return true;
}

/** Removes the item with this key; false when there is none. */
export function remove(table: ItemTable, id: ItemKey): boolean {
  const sequence = table.byId.get(slotOf(id));
  if (sequence === undefined) return false;
  table.byId.delete(slotOf(id));
  table.order[indexOf(table, sequence)] = undefined;
  table.holes += 1;
  if (table.holes > 1024 && table.holes > table.byId.size) {
    const kept = table.order.flatMap((item, index) => (item ? [index] : []));
    table.order = kept.map((index) => table.order[index]);
    table.sequences = kept.map((index) => table.sequences[index] as number);
    table.holes = 0;
  }
  return true;
}

/** Removes every item; the allocation sequence goes on where it was. */
export function clear(table: ItemTable): void {
  table.byId.clear();
  table.order = [];
  table.sequences = [];
  table.holes = 0;
}

/** Moves the allocation sequence past `value` (never back). */
export function allocatedPast(table: ItemTable, value: bigint): void {
  if (value > table.allocated) table.allocated = value;
}

/** The largest integer key among `items` (0n when none is positive): where a seed moves the allocation sequence. */
export function highestKey(items: readonly Item[]): bigint {
  let highest = 0n;
  for (const item of items) if (typeof item.id === 'bigint' && item.id > highest) highest = item.id;
  return highest;
}

export function allItems(table: ItemTable): Item[] {
  return table.order.filter((item): item is Item => item !== undefined);
}

/**
 * Items created after sequence `after` that `keep` accepts, `skip` of them passed over, at most
 * `limit`; `next` when more may follow. The scan stops once the page is full, so a page costs its
 * own size (plus what a filter passes over), not the collection's.
 */
export function page(table: ItemTable, after: number, limit: number, skip = 0, keep?: (item: Item) => boolean): ItemPage {
  const { order, sequences } = table;
  const items: Item[] = [];
  let toSkip = skip;
  let index = indexOf(table, after + 1);
  for (; index < order.length && items.length < limit; index += 1) {
    const item = order[index];
    if (item === undefined || (keep !== undefined && !keep(item))) continue;
    if (toSkip > 0) toSkip -= 1;
    else items.push(item);
  }
  while (index < order.length && order[index] === undefined) index += 1;
  // The table's own frozen items (memory-store.ts freezes each one it stores).
  return index < order.length && items.length > 0 ? { items, next: String(sequences[index - 1]), resident: true } : { items, resident: true };
}
