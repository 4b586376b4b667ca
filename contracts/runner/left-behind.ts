/**
 * What the run created and could not delete again: each item's resource, id (when the answer gave
 * one) and why it stays. The report lists it (console and JSON), so a user of a shared target
 * knows what to clean up; a run that left nothing says so by an empty list.
 */
import type { LeftBehindItems } from '../report.js';

/** Examples kept per resource and reason: the count says the rest. */
const EXAMPLES = 10;

export interface LeftBehind {
  /** One item that stays; `id` undefined when the answer did not say which item it made. */
  add(resource: string, id: string | undefined, reason: string): void;
  list(): LeftBehindItems[];
}

export function leftBehindCollector(): LeftBehind {
  const groups = new Map<string, { resource: string; reason: string; count: number; ids: string[] }>();
  return {
    add(resource, id, reason) {
      const key = `${resource}\u0000${reason}`;
      const group = groups.get(key) ?? { resource, reason, count: 0, ids: [] };
      group.count += 1;
      if (id !== undefined && group.ids.length < EXAMPLES) group.ids.push(id);
      groups.set(key, group);
    },
    list: () => [...groups.values()].map((group) => ({ ...group, ids: [...group.ids] })),
  };
}
