import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/** Up, for how long, holding what, serving which document. Counts plants across all tenants. */
export const getHealth: ControlHandler = (_request, { stores, api, startedAt }) => {
  const tenants = stores.tenants();
  const plants = tenants.reduce((sum, tenant) => sum + stores.forTenant(tenant).size, 0);
  return json(
    200,
    JSON.stringify({
      status: 'ok',
      plants,
      tenants: tenants.length,
      uptimeMs: Math.max(0, Date.now() - startedAt),
      document: { title: api.title, version: api.version },
    }),
  );
};
