/**
 * `serve --watch` with a config or seed file: what a reload takes from the options read again. The
 * resource overrides, the seed and the config's faults are taken while serving; every other option
 * (port, host, tokens, …) is read once at start, so a change to it is named for a restart.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ItemSeedResult, TenantItems } from '../store/item-store.js';
import type { SeedItems } from '../store/tenants.js';
import type { ServerOptions } from './options/server-options.js';

/** Options a reload applies; the rest need a restart. */
const TAKEN_LIVE: ReadonlySet<string> = new Set(['resources', 'resourceModel', 'seed', 'seedItems', 'faults', 'watch', 'optionSources', 'log']);

/**
 * The options changed in `after` that only a restart takes, by name (never their values: one may be a token).
 */
export function restartOnlyChanges(before: ServerOptions, after: ServerOptions): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !TAKEN_LIVE.has(key) && !isDeepStrictEqual(before[key as keyof ServerOptions], after[key as keyof ServerOptions]));
}

/**
 * Stores the items the seed gained (new, or changed since `before`) in `shared`: an item whose key
 * is stored already stays as it is, so what a client changed or created is kept; an item a client
 * deleted is not brought back unless the seed itself changed it. Returns the log's account.
 */
export async function seedAgain(shared: TenantItems, before: SeedItems, after: SeedItems): Promise<string> {
  let created = 0;
  let kept = 0;
  for (const [collection, items] of Object.entries(after)) {
    const had = before[collection] ?? [];
    const gained = items.filter((item) => !had.some((old) => old.id === item.id && isDeepStrictEqual(old.fields, item.fields)));
    if (gained.length === 0) continue;
    const result: ItemSeedResult = await shared.collection(collection).seed(gained);
    created += result.created;
    kept += result.duplicates.length;
  }
  if (created + kept === 0) return 'seed: unchanged';
  return `seed: ${created} new item${created === 1 ? '' : 's'} stored, ${kept} already stored (kept as they are)`;
}
