import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/**
 * Where webhooks go and how their deliveries went, the last `history` oldest first (with isolation,
 * the tenant's only), and how many wait and were dropped (every tenant's: the cap is shared).
 */
export const listWebhooks: ControlHandler = (request, { webhooks, isolateByToken }) => {
  const deliveries = webhooks?.sender.deliveries() ?? [];
  return json(
    200,
    JSON.stringify({
      url: webhooks?.url ?? null,
      webhooks: webhooks?.names ?? [],
      ...(webhooks ? webhooks.sender.counts() : {}),
      deliveries: isolateByToken ? deliveries.filter((delivery) => delivery.tenant === request.tenant) : deliveries,
    }),
  );
};
