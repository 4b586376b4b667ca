import type { PlantLog, Recovery } from './plant-log.js';
import type { ChangeSink, PlantStore } from './plant-store.js';
import { createPlantStores, type PlantStores, type TenantId } from './tenants.js';

/**
 * One store per tenant, holding the recovered plants and writing every later change to the log.
 * The recovered plants are seeded without being written again: they are already in the log.
 */
export async function createDurableStores(log: PlantLog, recovery: Recovery, onNewTenant?: (store: PlantStore, tenant: TenantId) => void): Promise<PlantStores> {
  let restoring = true;
  const stores = createPlantStores((tenant): ChangeSink => {
    const sink = log.sinkFor(tenant);
    return (change) => (restoring ? Promise.resolve() : sink(change));
  }, onNewTenant);
  try {
    for (const [tenant, plants] of recovery.plants) await stores.forTenant(tenant).seed(plants);
  } finally {
    restoring = false;
  }
  return stores;
}
