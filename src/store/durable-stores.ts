import { allItems } from './item-table.js';
import { createMemoryTenant, type MemoryTenant } from './memory-tenant.js';
import type { LiveState, PlantLog, Recovery } from './plant-log.js';
import type { SeedItems, TenantBacking, TenantId } from './tenants.js';

/**
 * Tenants kept in a data dir: a tenant's collections hold the items replayed from its log and
 * write every later change to it. Only a tenant without a log is new, and its log is made holding
 * `seedNew`'s items; one that has a log comes back exactly as the log says, whatever it did to
 * its seed items (never seeded again).
 */
export function durableBacking(
  log: PlantLog,
  seedNew?: (tenant: TenantId) => SeedItems,
  onRecovery?: (tenant: TenantId, path: string, recovery: Recovery) => void,
): TenantBacking {
  return {
    durable: true,
    async open(tenant, create, onCount) {
      const opened = await log.openTenant(tenant, create ? (seedNew?.(tenant) ?? {}) : undefined);
      if (!opened) return undefined;
      if (!opened.isNew) onRecovery?.(tenant, opened.log.path, opened.recovery);
      const memory = createMemoryTenant({ sinkFor: opened.log.sinkFor, onCount, restored: opened.tables });
      opened.log.watch(liveStateOf(memory));
      return { memory, release: () => opened.log.close() };
    },
  };
}

/** What compaction reads of a tenant in memory. */
export function liveStateOf(memory: MemoryTenant): LiveState {
  return {
    get size() {
      return memory.size;
    },
    snapshot: () => memory.entries().map(([collection, { table }]) => ({ collection, items: allItems(table), allocated: table.allocated })),
  };
}
