import type { HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import type { JournalQuery } from '../journal/journal.js';
import type { TenantId } from '../store/tenants.js';
import { caughtUp, json, noContent, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import { journalToHar } from './har.js';
import { plantstoreVersion } from '../core/package.js';
import { PlantstoreError } from '../core/errors.js';

/** A journal shared by replicas: this replica's view brought up to date first. */
const synced = (control: ControlContext) => caughtUp(control.journal.synced?.bind(control.journal));

export const listJournal: ControlHandler = async (request, control) => {
  const query = journalQuery(request, control);
  if (!query.ok) return query.refusal;
  return (await synced(control)) ?? json(200, JSON.stringify(control.journal.entries(query.query)));
};

export const exportJournalHar: ControlHandler = async (request, control) => {
  const query = journalQuery(request, control);
  if (!query.ok) return query.refusal;
  const behind = await synced(control);
  if (behind) return behind;
  return json(200, JSON.stringify(journalToHar(control.journal.entries(query.query), { name: 'plantstore', version: plantstoreVersion() })));
};

export const clearJournal: ControlHandler = async ({ tenant }, control) => {
  control.journal.clear(scopeOf(tenant, control));
  return (await synced(control)) ?? noContent();
};

/** The journal views' tenant when an admin names none (isolation, no plantstore-token): every tenant. */
export const ALL_TENANTS: TenantId = '*';

/** With isolation a tenant sees and clears only its own requests, an admin naming none all of them; without isolation, all of them. */
function scopeOf(tenant: TenantId, control: ControlContext): TenantId | undefined {
  return control.isolateByToken && tenant !== ALL_TENANTS ? tenant : undefined;
}

/**
 * The journal filter from the query string. The document has checked the values (limit ≥ 1,
 * status 0–599); they still arrive as text.
 */
export function journalQuery(
  { request, tenant }: HandlerContext,
  control: ControlContext,
): { ok: true; query: JournalQuery } | { ok: false; refusal: Outcome } {
  try {
    const limit = wholeNumber(single(request.query, 'limit'), 'limit');
    const status = wholeNumber(single(request.query, 'status'), 'status');
    const operation = single(request.query, 'operation');
    const method = single(request.query, 'method');
    const path = single(request.query, 'path');
    const scope = scopeOf(tenant, control);
    return {
      ok: true,
      query: { limit, status, operation, method, path, tenant: scope },
    };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return { ok: false, refusal: refused('schemaViolation', error.message) };
  }
}

class QueryError extends PlantstoreError {
  override readonly name = 'QueryError';

  constructor(message: string) {
    super('query', message);
  }
}

function single(query: HandlerContext['request']['query'], name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new QueryError(`the query parameter ${name} is given ${value.length} times; give it once`);
  return value;
}

function wholeNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < 0)
    throw new QueryError(`the query parameter ${name} must be a whole number, not "${text}"`);
  return value;
}
