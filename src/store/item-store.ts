/**
 * The store's public surface for every resource a document describes (issue 9): items of a
 * collection, collections of a tenant. The plant store is its first case: a plant is an item of
 * the 'plants' collection whose key is its int64 id.
 *
 * Every operation is one atomic step that a shared engine (Redis/Valkey: a hash per collection, a
 * sorted set by creation sequence, INCR for allocation, a Lua script or WATCH/MULTI for an update)
 * could do, and every one is a promise, so a networked store fits behind it. A change answers only
 * once it is final (durable, with a log); a refusal (duplicate, absent) is true of the final state
 * when it is given.
 */
import type { JsonValue } from '../core/json/exact-json.js';
import type { ItemKey, Resource } from '../core/resources/model.js';
import type { TenantId } from './tenants.js';

export type { ItemKey } from '../core/resources/model.js';

/** An item's properties as stored, its identifier property included; integers beyond 2^53 are bigints. */
export type ItemFields = Readonly<Record<string, JsonValue>>;

/** A stored item: its key (the identifier's value, exact) and its properties. */
export interface Item {
  readonly id: ItemKey;
  readonly fields: ItemFields;
}

export type ItemCreateResult = { readonly ok: true; readonly item: Item } | { readonly ok: false; readonly reason: 'duplicate-id'; readonly existing: Item };

export interface ItemSeedResult {
  readonly created: number;
  /** Keys already stored; those items were left as they were. */
  readonly duplicates: readonly ItemKey[];
}

/** Which part of the creation order a list answers. */
export interface ItemPageRequest {
  /** A `next` from an earlier page; absent or undefined: from the first item. */
  readonly cursor?: string | undefined;
  /** Items to pass over first (offset/page paging); absent: none. */
  readonly skip?: number;
  readonly limit: number;
  /** Keeps only the items whose property equals the value (a list's filter parameters), compared as JSON. */
  readonly where?: Readonly<Record<string, JsonValue>>;
}

export interface ItemPage {
  readonly items: readonly Item[];
  /** Where the next page starts; absent on the last page. */
  readonly next?: string;
  /**
   * The items are the store's own, frozen, and the same objects at every read while unchanged (a
   * change stores a new one): the memory store's. An answer may then keep what it wrote for them.
   */
  readonly resident?: true;
}

/** One collection's items: a resource's (or, nested, a resource's under one parent). */
export interface ItemStore {
  /** Create-if-absent: stores the item unless its key is taken; a taken key leaves the store unchanged. */
  create(item: Item): Promise<ItemCreateResult>;
  /**
   * The next number of this collection's allocation sequence (1, 2, 3, …; never reused, not even
   * after a reset or a restart): what a server-assigned identifier is made from.
   */
  allocate(): Promise<bigint>;
  get(id: ItemKey): Promise<Item | undefined>;
  /** Replaces the item stored under `item.id`; undefined when there is none (nothing is stored then). */
  replace(item: Item): Promise<Item | undefined>;
  /** Applies `change` to the stored item atomically and stores its result; undefined when there is none. */
  update(id: ItemKey, change: (current: Item) => Item): Promise<Item | undefined>;
  delete(id: ItemKey): Promise<boolean>;
  /** Removes every item. */
  reset(): Promise<void>;
  /** Stores many items; keys already taken are reported, not overwritten. */
  seed(items: readonly Item[]): Promise<ItemSeedResult>;
  /** A page of items in the order they were created. */
  list(page: ItemPageRequest): Promise<ItemPage>;
  count(): Promise<number>;
}

/**
 * A collection's name within a tenant: the resource's name, and for a nested resource the values
 * of its parent parameters ('owners.pets/7'), so each parent has its own items.
 */
export type CollectionKey = string;

export function collectionKey(resource: Pick<Resource, 'name'>, parentValues: readonly string[] = []): CollectionKey {
  return parentValues.length === 0 ? resource.name : `${resource.name}/${parentValues.map(encodeURIComponent).join('/')}`;
}

/** One tenant's collections. */
export interface TenantItems {
  /** The collection's store, made empty on first use. */
  collection(key: CollectionKey): ItemStore;
  /** The collections that hold (or held) items. */
  collections(): readonly CollectionKey[];
}

/** Every tenant's collections: what serve and the control API are given. */
export interface ResourceStores {
  /** The tenant's collections: made on first use, reloaded if evicted. */
  forTenant(tenant: TenantId): Promise<TenantItems>;
  /** The collections of a tenant that exists (in memory or, with a data dir, on disk); never makes one. */
  existing(tenant: TenantId): Promise<TenantItems | undefined>;
  /** Tenants held in memory, least recently used first. */
  tenants(): TenantId[];
  /** Tenants and items held in memory, as counters. */
  counts(): { readonly tenants: number; readonly items: number };
}
