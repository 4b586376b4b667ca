import type { Plant } from './plant-store.js';

/**
 * One tenant's plants as plain data: id → creation sequence, and the plants by ascending sequence
 * (`order`/`sequences`), a deleted plant leaving a hole until holes outnumber plants. Replay builds
 * it and the store takes it over as it is, so a restart indexes a million plants once, not twice.
 * A sequence is never reused (not even after a reset), so it is a stable paging cursor.
 */
export interface PlantTable {
  readonly byId: Map<bigint, number>;
  order: (Plant | undefined)[];
  sequences: number[];
  holes: number;
  nextSequence: number;
}

export function createTable(): PlantTable {
  return { byId: new Map(), order: [], sequences: [], holes: 0, nextSequence: 1 };
}

/** Where the first plant with a sequence ≥ `sequence` is (or would be) in `order`. */
function indexOf(table: PlantTable, sequence: number): number {
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

export function plantOf(table: PlantTable, id: bigint): Plant | undefined {
  const sequence = table.byId.get(id);
  return sequence === undefined ? undefined : table.order[indexOf(table, sequence)];
}

/** Adds a plant whose id is not in the table. */
export function insert(table: PlantTable, plant: Plant): void {
  table.byId.set(plant.id, table.nextSequence);
  table.order.push(plant);
  table.sequences.push(table.nextSequence);
  table.nextSequence += 1;
}

/** Removes the plant with this id; false when there is none. */
export function remove(table: PlantTable, id: bigint): boolean {
  const sequence = table.byId.get(id);
  if (sequence === undefined) return false;
  table.byId.delete(id);
  table.order[indexOf(table, sequence)] = undefined;
  table.holes += 1;
  if (table.holes > 1024 && table.holes > table.byId.size) {
    const kept = table.order.flatMap((plant, index) => (plant ? [index] : []));
    table.order = kept.map((index) => table.order[index]);
    table.sequences = kept.map((index) => table.sequences[index] as number);
    table.holes = 0;
  }
  return true;
}

export function clear(table: PlantTable): void {
  table.byId.clear();
  table.order = [];
  table.sequences = [];
  table.holes = 0;
}

export function allPlants(table: PlantTable): Plant[] {
  return table.order.filter((plant): plant is Plant => plant !== undefined);
}

/** Up to `limit` plants created after sequence `after`; `next` when more follow. */
export function page(table: PlantTable, after: number, limit: number): { plants: Plant[]; next?: string } {
  const { order, sequences } = table;
  const plants: Plant[] = [];
  let index = indexOf(table, after + 1);
  for (; index < order.length && plants.length < limit; index += 1) {
    const plant = order[index];
    if (plant) plants.push(plant);
  }
  while (index < order.length && order[index] === undefined) index += 1;
  return index < order.length && plants.length > 0 ? { plants, next: String(sequences[index - 1]) } : { plants };
}
