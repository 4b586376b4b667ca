/**
 * The bundled Plant Store's plants as its tests read them: the 'plants' collection's items, over the
 * item API (ItemStore), seen as {id, name, tag}. Test support only: the product's surface is the
 * item API (`server.stores.forTenant(tenant).collection(name)`), for every resource alike.
 */
import type { ItemStore } from '../../src/store/item-store.js';
import { PLANTS, plantItem, plantOf, type Plant } from '../../src/store/plant-store.js';
import { SHARED_TENANT, type TenantId } from '../../src/store/tenants.js';
import type { ResourceStores } from '../../src/store/item-store.js';

export interface Plants {
  create(
    plant: Plant,
  ): Promise<{ readonly ok: true; readonly plant: Plant } | { readonly ok: false; readonly reason: 'duplicate-id'; readonly existing: Plant }>;
  get(id: bigint): Promise<Plant | undefined>;
  delete(id: bigint): Promise<boolean>;
  reset(): Promise<void>;
  seed(plants: readonly Plant[]): Promise<{ readonly created: number; readonly duplicates: readonly bigint[] }>;
  list(page: { readonly cursor?: string | undefined; readonly limit: number }): Promise<{ readonly plants: readonly Plant[]; readonly next?: string }>;
  count(): Promise<number>;
}

/** A collection's items seen as plants. */
export function plantsIn(items: ItemStore): Plants {
  return {
    create: (plant) =>
      items
        .create(plantItem(plant))
        .then((result) => (result.ok ? { ok: true, plant: plantOf(result.item) } : { ok: false, reason: result.reason, existing: plantOf(result.existing) })),
    get: (id) => items.get(id).then((item) => item && plantOf(item)),
    delete: (id) => items.delete(id),
    reset: () => items.reset(),
    seed: (plants) => items.seed(plants.map(plantItem)).then(({ created, duplicates }) => ({ created, duplicates: duplicates as bigint[] })),
    list: (page) =>
      items.list(page).then(({ items: listed, next }) => (next === undefined ? { plants: listed.map(plantOf) } : { plants: listed.map(plantOf), next })),
    count: () => items.count(),
  };
}

/** A tenant's plants (the shared tenant's unless named: `tenantOfToken(token)` with isolation). */
export async function storedPlants(server: { readonly stores: ResourceStores }, tenant: TenantId = SHARED_TENANT): Promise<Plants> {
  return plantsIn((await server.stores.forTenant(tenant)).collection(PLANTS));
}
