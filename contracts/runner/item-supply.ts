/**
 * Items a create case made, handed to a delete case instead of being deleted and made again.
 *
 * A delete case needs an item of its own (owned-items.ts: never an id drawn from the schema), and
 * every item a create case makes is deleted once judged (tidy.ts). At the defaults that was two
 * requests nobody judged per delete case: of the 3,218 requests a run sent the public Plant Store,
 * 337 were creates made only to be deleted and 546 were tidy deletes. Here the create case's item
 * goes to a delete case of its resource that runs beside it (sample.ts), and that case deletes it:
 * the run sends 2,735 requests for the same 2,308 cases, and the target sees only creates and
 * deletes of items the run made, as before.
 *
 * Only what cannot surprise another case is handed on: an item a valid create made with an id the
 * run drew never-used (not one the server numbered, which a read by a drawn id could find), of a
 * resource whose item path has no parent. The supply holds a few at a time (lists see at most that
 * many more items than are in flight), is open during the run's main phase only (shrinking and
 * --replay make their own), and what it still holds when it closes is deleted like any other item.
 */
import type { Resource } from '../../src/core/resources/model.js';
import type { SentRequest } from '../report.js';

/** An item the run created: enough to name it in a path and to show, in a finding, the create that made it. */
export interface OwnedItem {
  readonly resource: Resource;
  readonly key: string;
  /** The path it was created at (a nested item's parent ids in it). */
  readonly createdAt: string;
  /** The create as sent, marked with the item it made (a finding's curl names it $ID1). */
  readonly request: SentRequest;
}

/** An item in the supply, with how to delete it when nobody took it. */
export interface SuppliedItem extends OwnedItem {
  readonly remove: () => Promise<void>;
}

export interface ItemSupply {
  /** An item of `resource` nobody uses, taken out of the supply; undefined when there is none. */
  take(resource: Resource): OwnedItem | undefined;
  /** Offers an item a case is done with: false when the supply is full or closed (the caller deletes it then). */
  offer(item: SuppliedItem): boolean;
  /** Closes the supply: no more offers are taken, and what it held is returned, to be deleted. */
  close(): SuppliedItem[];
}

/** Items held at most per resource: enough to meet the delete cases that run beside the creates (sample.ts interleaves them). */
export const SUPPLY_PER_RESOURCE = 8;

/** A supply for the resources in `takers` (those a delete case takes items of); offers of others are declined. */
export function itemSupply(takers: ReadonlySet<Resource>, limit = SUPPLY_PER_RESOURCE): ItemSupply {
  const held = new Map<Resource, SuppliedItem[]>();
  let open = true;
  return {
    take(resource) {
      // Oldest first: an item waits as little as it can where lists see it.
      const item = held.get(resource)?.shift();
      if (item === undefined) return undefined;
      const { remove: _remove, ...owned } = item;
      return owned;
    },
    offer(item) {
      if (!open || !takers.has(item.resource)) return false;
      const items = held.get(item.resource) ?? [];
      if (items.length >= limit) return false;
      items.push(item);
      held.set(item.resource, items);
      return true;
    },
    close() {
      open = false;
      const rest = [...held.values()].flat();
      held.clear();
      return rest;
    },
  };
}
