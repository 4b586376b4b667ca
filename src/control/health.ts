import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/**
 * Up, for how long, holding what, serving which document. Plants and tenants are those held in
 * memory (evicted tenants' plants stay in the data dir), read from counters: O(1) for any number of tenants.
 */
export const getHealth: ControlHandler = (_request, { stores, api, startedAt, reload, watching }) => {
  const reloaded = reload?.();
  const watched = watching?.();
  const { items, tenants } = stores.counts();
  return json(
    200,
    JSON.stringify({
      status: 'ok',
      // Items of every resource; `plants` is the name earlier versions gave the count.
      plants: items,
      items,
      tenants,
      uptimeMs: Math.max(0, Date.now() - startedAt),
      document: { title: api.title, version: api.version },
      // Only with --watch, once the file has changed: the inspector shows why a new document was not taken.
      ...(watched ? { watching: watched } : {}),
      ...(reloaded ? { reload: reloaded } : {}),
    }),
  );
};
