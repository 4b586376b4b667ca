/**
 * Items the run's valid creates made, handed to the cases that delete one (issue 21: requests per
 * case). A valid create's item was deleted again once judged (tidy.ts), and each DELETE case created
 * an item of its own first (owned-items.ts): two requests, neither judged, for every DELETE case.
 * Now an item a valid create made with a fresh id is kept here instead, for the next DELETE case of its
 * resource: the same item, created by this run and accepted, that the case would have made itself.
 *
 * Bounded (what the later lists see, and what a halted run may leave), open only during the main
 * phase (a shrink or replay makes its own item, as before), and emptied by deleting what is left.
 */
import type { Resource } from '../../src/core/resources/model.js';
import type { SentRequest } from '../report.js';

/** An item the run made and has not deleted: where it was created, and the create that made it. */
export interface SpareItem {
  readonly resource: Resource;
  readonly key: string;
  readonly createdAt: string;
  readonly request: SentRequest;
  /** Deletes it (tidy.ts's delete), for what is left when the pool closes. */
  readonly discard: () => Promise<void>;
}

/** Items kept at most: the first DELETE cases of a default run take them all (~340 need one). */
export const SPARE_LIMIT = 256;

export interface SpareItems {
  /** Keeps the item for a later case; false when closed or full (the caller deletes it then). */
  offer(item: SpareItem): boolean;
  /** An item of `resource` for a case to delete; undefined when none (the case makes its own). */
  take(resource: Resource): SpareItem | undefined;
  /** No more offers or takes; what is left, for the caller to delete. */
  close(): SpareItem[];
}

export function spareItems(limit = SPARE_LIMIT): SpareItems {
  const kept = new Map<Resource, SpareItem[]>();
  let count = 0;
  let open = true;
  return {
    offer(item) {
      if (!open || count >= limit) return false;
      const list = kept.get(item.resource) ?? [];
      list.push(item);
      kept.set(item.resource, list);
      count += 1;
      return true;
    },
    take(resource) {
      if (!open) return undefined;
      // Oldest first: it has waited longest in the target.
      const item = kept.get(resource)?.shift();
      if (item !== undefined) count -= 1;
      return item;
    },
    close() {
      open = false;
      const left = [...kept.values()].flat();
      kept.clear();
      count = 0;
      return left;
    },
  };
}
