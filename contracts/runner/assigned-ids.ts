/**
 * The ids a target assigned, per collection (a create's method and path), counted over every create
 * of the run that gave none: a target may give a deleted item's id to a new item, and only then may
 * a read of a deleted id rightly answer another item (deleted-item-gone says so in those words).
 */
/** Per run (its HTTP client): an earlier run in the same process is another target. */
const assignedIds = new WeakMap<object, Map<string, Map<string, number>>>();

function collectionOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.split('?')[0] ?? path}`;
}

/** A create answered with this id, the server's choice. */
export function noteAssigned(run: object, method: string, path: string, key: string): void {
  const collections = assignedIds.get(run) ?? new Map<string, Map<string, number>>();
  assignedIds.set(run, collections);
  const collection = collectionOf(method, path);
  const counts = collections.get(collection) ?? new Map<string, number>();
  counts.set(key, (counts.get(key) ?? 0) + 1);
  collections.set(collection, counts);
}

/** How many creates to the collection were answered with this id. */
export function timesAssigned(run: object, method: string, path: string, key: string): number {
  return assignedIds.get(run)?.get(collectionOf(method, path))?.get(key) ?? 0;
}
