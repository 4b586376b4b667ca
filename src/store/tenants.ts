import { createHash } from 'node:crypto';
import { createPlantStore, type ChangeSink, type PlantStore } from './plant-store.js';

/**
 * Who a request's plants belong to. Without isolation everyone shares the default tenant; with
 * --isolate-by-token each bearer token is a tenant, named by a digest so the token itself is never
 * kept, logged or written to disk.
 */
export type TenantId = string;

export const SHARED_TENANT: TenantId = 'shared';

export function tenantOfToken(token: string): TenantId {
  return `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

export interface PlantStores {
  /** The store of a tenant, made on first use. */
  forTenant(tenant: TenantId): PlantStore;
  tenants(): TenantId[];
}

/**
 * A store per tenant; `sinkFor` lets a durable log tag each tenant's changes, and `onNewTenant`
 * prepares a store when it is first made (the seed plants, with isolation).
 */
export function createPlantStores(sinkFor?: (tenant: TenantId) => ChangeSink, onNewTenant?: (store: PlantStore, tenant: TenantId) => void): PlantStores {
  const stores = new Map<TenantId, PlantStore>();
  return {
    forTenant(tenant) {
      let store = stores.get(tenant);
      if (!store) {
        store = createPlantStore(sinkFor?.(tenant));
        stores.set(tenant, store);
        onNewTenant?.(store, tenant);
      }
      return store;
    },
    tenants: () => [...stores.keys()],
  };
}
