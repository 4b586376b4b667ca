import type { IncomingHttpHeaders } from 'node:http';
import type { IHttpOperation } from '@stoplight/types';
import { compileCredentialCheck } from '../auth/credential-check.js';
import { operationName } from '../core/openapi/operation.js';
import type { Binding } from '../http/binding.js';
import { SHARED_TENANT, tenantOfToken, type TenantId } from '../store/tenants.js';
import type { HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import { notFound, refused } from './answers.js';
import { ALL_TENANTS } from './journal.js';
import type { ControlContext, ControlHandler } from './context.js';
import { addFault, clearFaults, deleteFault, listFaults } from './faults.js';
import { getHealth } from './health.js';
import { clearJournal, exportJournalHar, listJournal } from './journal.js';
import { streamJournal } from './journal-events.js';
import { deletePlant, getPlant, listPlants, resetPlants, seedPlants } from './plants.js';
import { deleteItem, getItem, listItems, resetItems, seedItems } from './items.js';
import { listResources } from './resources.js';
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
  listItems,
  seedItems,
  resetItems,
  getItem,
  deleteItem,
  listJournal,
  exportJournalHar,
  clearJournal,
  streamJournal,
  listFaults,
  addFault,
  clearFaults,
  deleteFault,
  listResources,
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
    handle: async (request) => {
      const target = await targetTenant(operation.iid ?? '', request, context);
      return target.ok ? handler(target.tenant === request.tenant ? request : { ...request, tenant: target.tenant }, context) : target.refusal;
    },
  };
}

/** The operations on a tenant's store: a tenant they name with `?tenant=` must exist. */
const STORE_OPERATIONS: ReadonlySet<string> = new Set([
  'listPlants',
  'seedPlants',
  'resetPlants',
  'getPlant',
  'deletePlant',
  'listItems',
  'seedItems',
  'resetItems',
  'getItem',
  'deleteItem',
]);
const JOURNAL_OPERATIONS: ReadonlySet<string> = new Set(['listJournal', 'exportJournalHar', 'clearJournal']);

/**
 * The tenant a control request acts on. `?tenant=<digest>` names one for an admin who holds no
 * tenant's token (the journal names tenants by digest, never by token); a store view of one that
 * does not exist is a 404, not an empty store. With isolation and neither the query nor the
 * plantstore-token header, the journal views show every tenant.
 */
async function targetTenant(
  operationId: string,
  request: HandlerContext,
  context: ControlContext,
): Promise<{ readonly ok: true; readonly tenant: TenantId } | { readonly ok: false; readonly refusal: Outcome }> {
  const named = request.request.query.tenant;
  if (Array.isArray(named)) return { ok: false, refusal: refused('schemaViolation', 'the query parameter tenant is given more than once; give it once') };
  if (named !== undefined) {
    if (STORE_OPERATIONS.has(operationId) && named !== SHARED_TENANT && !(await tenantExists(named, context))) {
      return { ok: false, refusal: notFound(`no tenant ${named}: the journal names the tenants that have made requests`) };
    }
    return { ok: true, tenant: named };
  }
  const tokenHeader = request.request.headers[TENANT_TOKEN_HEADER];
  if (JOURNAL_OPERATIONS.has(operationId) && context.isolateByToken && (tokenHeader === undefined || tokenHeader.trim() === '')) {
    return { ok: true, tenant: ALL_TENANTS };
  }
  return { ok: true, tenant: request.tenant };
}

async function tenantExists(tenant: TenantId, context: ControlContext): Promise<boolean> {
  try {
    return (await context.stores.existing(tenant)) !== undefined;
  } catch {
    // The store could not be read (--data-dir): the handler meets the same problem and says so.
    return true;
  }
}

/** With isolation, the tenant of the API token in the plantstore-token header; else the shared one. */
export function controlTenant(headers: IncomingHttpHeaders, isolateByToken: boolean): TenantId {
  if (!isolateByToken) return SHARED_TENANT;
  const header = headers[TENANT_TOKEN_HEADER];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  return token ? tenantOfToken(token) : SHARED_TENANT;
}
