import type { IncomingHttpHeaders } from 'node:http';
import type { IHttpOperation } from '@stoplight/types';
import { compileCredentialCheck } from '../auth/credential-check.js';
import { operationName } from '../core/openapi/operation.js';
import type { Binding } from '../handlers/binding.js';
import { SHARED_TENANT, tenantOfToken, type TenantId } from '../store/tenants.js';
import type { ControlContext, ControlHandler } from './context.js';
import { addFault, clearFaults, deleteFault, listFaults } from './faults.js';
import { getHealth } from './health.js';
import { clearJournal, exportJournalHar, listJournal } from './journal.js';
import { deletePlant, getPlant, listPlants, resetPlants, seedPlants } from './plants.js';
import { listWebhooks } from './webhooks.js';

export type { ControlContext } from './context.js';

/** The control document's operations, by operationId. */
export const CONTROL_HANDLERS: Readonly<Record<string, ControlHandler>> = Object.freeze({
  getHealth,
  listPlants,
  seedPlants,
  resetPlants,
  getPlant,
  deletePlant,
  listJournal,
  exportJournalHar,
  clearJournal,
  listFaults,
  addFault,
  clearFaults,
  deleteFault,
  listWebhooks,
});

/** The header a control request names its tenant with: the tenant's API bearer token. */
export const TENANT_TOKEN_HEADER = 'plantstore-token';

/**
 * Binds an operation of spec/control-api.yaml. Throws at start-up for an operation plantstore
 * has no handler for, so a mismatched control document fails loudly instead of answering 500s.
 */
export function bindControlOperation(operation: IHttpOperation, context: ControlContext): Binding {
  const handler = operation.iid === undefined ? undefined : CONTROL_HANDLERS[operation.iid];
  if (!handler) {
    throw new Error(
      `the control document has an operation plantstore does not serve: ${operationName(operation)}; expected one of ${Object.keys(CONTROL_HANDLERS).join(', ')}`,
    );
  }
  return {
    // Only the admin token: the API's own tokens must not open the control API.
    authorize: context.adminToken !== undefined ? compileCredentialCheck(operation, [context.adminToken]) : () => ({ ok: true, token: undefined }),
    tenant: (_credentials, headers) => controlTenant(headers, context.isolateByToken),
    handle: (request) => handler(request, context),
  };
}

/** With isolation, the tenant of the API token in the plantstore-token header; else the shared one. */
export function controlTenant(headers: IncomingHttpHeaders, isolateByToken: boolean): TenantId {
  if (!isolateByToken) return SHARED_TENANT;
  const header = headers[TENANT_TOKEN_HEADER];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  return token ? tenantOfToken(token) : SHARED_TENANT;
}
