import { createHash, timingSafeEqual } from 'node:crypto';
import type { HandlerContext } from '../http/binding.js';
import { json } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';

/**
 * Up, for how long, holding what, serving which document. Items (of every resource) and tenants
 * are those held in memory (evicted tenants' items stay in the data dir), read from counters: O(1)
 * for any number of tenants.
 */
export const getHealth: ControlHandler = async (request, control) => {
  const { stores, api, startedAt, reload, watching, webhooks } = control;
  const reloaded = reload?.();
  const watched = watching?.();
  const { items, tenants } = stores.counts();
  return json(
    200,
    JSON.stringify({
      status: 'ok',
      items,
      tenants,
      uptimeMs: Math.max(0, Date.now() - startedAt),
      document: { title: api.title, version: api.version },
      // Only with --webhook: deliveries waiting and dropped, so a receiver that cannot keep up is seen.
      ...(webhooks ? { webhooks: await pendingAndDropped(webhooks) } : {}),
      // Only with --watch: what is watched, and once a file has changed, the last reload (the inspector shows why one was not taken).
      ...(watched ? { watching: watched } : {}),
      ...(reloaded ? { reload: reloaded.error === undefined || mayReadReasons(request, control) ? reloaded : { ...reloaded, error: HIDDEN } } : {}),
    }),
  );
};

/** Every replica's with --store redis://…; this replica's while Redis cannot be read (health answers all the same). */
async function pendingAndDropped({ sender, shared }: NonNullable<ControlContext['webhooks']>): Promise<{ pending: number; dropped: number }> {
  const counted = shared ? await shared.read(0).catch(() => undefined) : undefined;
  const { pending, dropped } = counted ?? sender.counts();
  return { pending, dropped };
}

const HIDDEN = 'not shown without the admin token (the reason may quote a value of the config file)';

/**
 * Health needs no token (readiness probes), but a refused config's reason may quote one of its
 * values, a token among them: with --admin-token only its holder reads it.
 */
function mayReadReasons({ request }: HandlerContext, { adminToken }: ControlContext): boolean {
  if (adminToken === undefined) return true;
  const given = request.headers.authorization;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(`Bearer ${adminToken}`));
}
