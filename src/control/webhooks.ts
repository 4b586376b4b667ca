import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/** Where webhooks go and how their deliveries went, oldest first; with isolation, the tenant's only. */
export const listWebhooks: ControlHandler = (request, { webhooks, isolateByToken }) => {
  const deliveries = webhooks?.sender.deliveries() ?? [];
  return json(
    200,
    JSON.stringify({
      url: webhooks?.url ?? null,
      webhooks: webhooks?.names ?? [],
      deliveries: isolateByToken ? deliveries.filter((delivery) => delivery.tenant === request.tenant) : deliveries,
    }),
  );
};
