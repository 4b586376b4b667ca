/**
 * What a case created is deleted again once the case has been judged, where the document has a
 * delete for that resource: a shared staging server is left as the run found it instead of
 * filling with test items, and each later list answer stays the size of what is in flight rather
 * than of everything the run has sent (at --runs 3000 a list had grown to thousands of items, and
 * every list was sent, answered, parsed and judged in full).
 *
 * Housekeeping, not a test: these deletes are neither judged nor counted as cases (the lifecycle
 * sequences judge deletes, with a model of what must be gone). Only items this run certainly made
 * are deleted: a valid create the target accepted, of the operation that creates the resource.
 * Lifecycle sequences delete their own. `--keep-created` leaves everything in place.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { Resource } from '../../src/core/resources/model.js';
import type { Exchange, ExchangeFacts, ExchangeRole } from '../checks/index.js';
import { isJsonObject } from '../generators/json-value.js';
import type { RequestCase } from './case-source.js';
import { createdKeyIn, itemPath } from './lifecycle/steps.js';
import { send, type RunEnv } from './send.js';

/** Deletes what `exchanges` created; `env` must not count its requests (see runner/run.ts envFor). */
export type Tidy = (env: RunEnv, exchanges: readonly Exchange[]) => Promise<void>;

/** The creates a case sends on its own (a lifecycle sequence deletes what it holds at its end). */
const CREATING_ROLES: ReadonlySet<ExchangeRole> = new Set(['create', 'retry', 'setup', 'repeat', 'neighbour', 'model']);

const FACTS: ExchangeFacts = { role: 'create', kind: 'valid', target: 'parameter', itemMayBeAbsent: true };

/**
 * @param create  the resource's create operation (the plan's own)
 * @param remove  its delete operation
 * @param template a valid request for `remove` (credentials, required parameters); its path is replaced
 */
export function tidyFor(resource: Resource, create: Operation, remove: Operation, template: RequestCase): Tidy {
  return async (env, exchanges) => {
    const made = new Map<string, string>();
    for (const exchange of exchanges) {
      if ((exchange.operation ?? create) !== create || exchange.facts.kind !== 'valid' || !CREATING_ROLES.has(exchange.facts.role)) continue;
      if (!isSuccess(exchange.response.status ?? 0)) continue;
      const payload = exchange.facts.payload;
      const key = createdKeyIn(resource, isJsonObject(payload) ? payload : undefined, exchange.response.body);
      if (key !== undefined) made.set(key, pathOn(env, exchange.request.url));
    }
    for (const [key, createdAt] of made) {
      const request = { ...template, path: itemPath(resource, remove, template, key, createdAt) };
      // An answer of any kind will do: what could not be deleted stays, as it would without tidying.
      await send(env, request, FACTS, `delete ${resource.name} ${key}, created by the case before`).catch(() => undefined);
    }
  };
}

/** The request's path and query relative to the target's base URL: where the item was created (a nested item's parent). */
function pathOn(env: RunEnv, url: string): string {
  const base = env.client.baseUrl.replace(/\/+$/, '');
  return url.startsWith(base) ? url.slice(base.length) : new URL(url).pathname;
}
