import { RETRY_SOON } from '../core/errors.js';
import { json, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import type { WebhookCounts, WebhookDelivery } from '../webhooks/sender.js';

/**
 * Where webhooks go and how their deliveries went, the last `history` oldest first (with isolation,
 * the tenant's only), and how many wait and were dropped (every tenant's: the cap is shared). With
 * --store redis://… every replica's deliveries and counts; the store's 503 when it cannot be read.
 */
export const listWebhooks: ControlHandler = async (request, { webhooks, isolateByToken }) => {
  let shown: { deliveries: readonly WebhookDelivery[]; counts?: WebhookCounts };
  try {
    shown = await deliveriesOf(webhooks);
  } catch (error) {
    return refused('storageFailed', `the shared store could not be read: ${error instanceof Error ? error.message : String(error)}`, RETRY_SOON);
  }
  const { deliveries, counts } = shown;
  return json(
    200,
    JSON.stringify({
      url: webhooks?.url ?? null,
      webhooks: webhooks?.names ?? [],
      ...counts,
      deliveries: isolateByToken ? deliveries.filter((delivery) => delivery.tenant === request.tenant) : deliveries,
    }),
  );
};

/** This process's deliveries, or every replica's (serve --store redis://…); counts only with --webhook. */
export async function deliveriesOf(webhooks: ControlContext['webhooks']): Promise<{ deliveries: readonly WebhookDelivery[]; counts?: WebhookCounts }> {
  if (webhooks === undefined) return { deliveries: [] };
  const own = webhooks.sender.counts();
  if (webhooks.shared === undefined) return { deliveries: webhooks.sender.deliveries(), counts: own };
  const { deliveries, pending, dropped } = await webhooks.shared.read();
  return { deliveries, counts: { ...own, pending, dropped } };
}
