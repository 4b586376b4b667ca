import type { PlantLog, Recovery } from './plant-log.js';
import { createMemoryStore, type Plant } from './plant-store.js';
import type { TenantBacking, TenantId } from './tenants.js';

/**
 * Tenants kept in a data dir: a tenant's store holds the plants replayed from its log and writes
 * every later change to it. Only a tenant without a log is new, and its log is made holding
 * `seedNew`'s plants; one that has a log comes back exactly as the log says, whatever it did to
 * its seed plants (never seeded again).
 */
export function durableBacking(
  log: PlantLog,
  seedNew?: (tenant: TenantId) => readonly Plant[],
  onRecovery?: (tenant: TenantId, path: string, recovery: Recovery) => void,
): TenantBacking {
  return {
    durable: true,
    async open(tenant, create, onCount) {
      const opened = await log.openTenant(tenant, create ? (seedNew?.(tenant) ?? []) : undefined);
      if (!opened) return undefined;
      if (!opened.isNew) onRecovery?.(tenant, opened.log.path, opened.recovery);
      const memory = createMemoryStore({ sink: opened.log.sink, onCount, restored: opened.table });
      opened.log.watch(memory);
      return { memory, release: () => opened.log.close() };
    },
  };
}
