/**
 * What a case created is deleted again once the case has been judged, where the document has a
 * delete for that resource: a shared staging server is left as the run found it instead of
 * filling with test items, and each later list answer stays the size of what is in flight rather
 * than of everything the run has sent (at --runs 3000 a list had grown to thousands of items, and
 * every list was sent, answered, parsed and judged in full).
 *
 * Housekeeping, not a test: these deletes are neither judged nor counted as cases (the lifecycle
 * sequences judge deletes, with a model of what must be gone). Every create of the resource's
 * create operation the target accepted is deleted, valid or not: a target that stores an invalid
 * body has still made an item (issue 19: json-server kept them all). Lifecycle sequences delete
 * what they hold at their end, and an item the case deleted itself is not deleted again (that was
 * one request for nothing per lifecycle item, and where no 404 is declared each was listed as left
 * behind). What cannot be deleted (no id in the answer, a refused delete) is collected for the
 * report (left-behind.ts). `--keep-created` leaves everything in place.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess, operationName } from '../../src/core/openapi/operation.js';
import type { Resource } from '../../src/core/resources/model.js';
import type { Exchange, ExchangeFacts, ExchangeRole } from '../checks/index.js';
import { isJsonObject } from '../generators/json-value.js';
import type { RequestCase } from './case-source.js';
import type { OwnedItem } from './item-supply.js';
import { createdKeyIn, itemPath, keyFromAnswer } from './lifecycle/steps.js';
import { send, type RunEnv } from './send.js';

/** Deletes what `exchanges` created; `env` must not count its requests (see runner/run.ts envFor). */
export type Tidy = (env: RunEnv, exchanges: readonly Exchange[]) => Promise<void>;

/** The creates a case sends on its own (a lifecycle sequence deletes what it holds at its end). */
const CREATING_ROLES: ReadonlySet<ExchangeRole> = new Set(['create', 'reject', 'retry', 'setup', 'repeat', 'neighbour', 'model']);

/** Tidying walks the case's requests in order, so a lifecycle's create again of an item it had deleted ('lifecycle', at the create) is held again. */
const HOLDING_ROLES: ReadonlySet<ExchangeRole> = new Set([...CREATING_ROLES, 'lifecycle']);

const FACTS: ExchangeFacts = { role: 'create', kind: 'valid', target: 'parameter', itemMayBeAbsent: true };

/**
 * @param create  the resource's create operation (the plan's own)
 * @param remove  its delete operation
 * @param template a valid request for `remove` (credentials, required parameters); its path is replaced
 */
export function tidyFor(resource: Resource, create: Operation, remove: Operation, template: RequestCase): Tidy {
  return async (env, exchanges) => {
    const made = new Map<string, { readonly createdAt: string; readonly by: Exchange }>();
    for (const exchange of exchanges) {
      if (!isSuccess(exchange.response.status ?? 0)) continue;
      // Deleted by the case itself (a lifecycle's delete steps and its end): gone, and its key may be another case's item by now.
      if (exchange.operation === remove) {
        const deleted = [...made].find(([key, { createdAt }]) =>
          samePath(itemPath(resource, remove, template, key, createdAt), pathOn(env, exchange.request.url)),
        );
        if (deleted !== undefined) made.delete(deleted[0]);
        continue;
      }
      if ((exchange.operation ?? create) !== create || !HOLDING_ROLES.has(exchange.facts.role)) continue;
      const key = keyOf(resource, exchange);
      if (key === undefined)
        env.leftBehind?.add(
          resource.name,
          undefined,
          `${operationName(create)} accepted a create and answered no ${resource.identifier.property} to delete it by`,
        );
      else made.set(key, { createdAt: pathOn(env, exchange.request.url), by: exchange });
    }
    for (const [key, { createdAt, by }] of made) {
      const removeIt = (): Promise<void> => deleteItem(env, resource, remove, template, key, createdAt);
      // A delete case takes it instead (item-supply.ts): one create and one delete fewer, nobody's item touched.
      if (env.supply !== undefined && handedOn(by) && env.supply.offer({ ...ownedItem(resource, key, createdAt, by), remove: removeIt })) continue;
      await removeIt();
    }
  };
}

/**
 * Whether a delete case may take the item `exchange` made: one a valid create made with an id the
 * run drew never-used, so nothing else it sends can name it. Not one the server numbered: a read by
 * a drawn id (1, 2, …) would find it while it waits. Not a lifecycle's: it deletes what it holds.
 */
function handedOn(exchange: Exchange): boolean {
  const { facts } = exchange;
  return facts.kind === 'valid' && facts.role !== 'lifecycle' && facts.id?.freshness === 'fresh';
}

/** The item as a delete case names it: its create relabelled as the case's own set-up (a finding's curl creates it first). */
export function ownedItem(resource: Resource, key: string, createdAt: string, by: Exchange): OwnedItem {
  const assignedBy = resource.identifier.assignedBy === 'server' || by.facts.id === undefined ? 'server' : 'client';
  return {
    resource,
    key,
    createdAt,
    request: {
      ...by.request,
      label: `create a ${resource.name} item for the case to write to`,
      creates: { property: resource.identifier.property, id: key, assignedBy },
    },
  };
}

/** Where nothing is deleted (no delete in the document, or --keep-created): what the cases created is listed as left behind, with `reason`. */
export function keepFor(resource: Resource, create: Operation, reason: string): Tidy {
  return async (env, exchanges) => {
    for (const exchange of exchanges) {
      if ((exchange.operation ?? create) !== create || !CREATING_ROLES.has(exchange.facts.role)) continue;
      if (isSuccess(exchange.response.status ?? 0)) env.leftBehind?.add(resource.name, keyOf(resource, exchange), reason);
    }
  };
}

/** The id of the item an accepted create made: an invalid body's from the answer first (what was sent may not be an id at all). */
function keyOf(resource: Resource, exchange: Exchange): string | undefined {
  const payload = exchange.facts.payload;
  const body = isJsonObject(payload) ? payload : undefined;
  return exchange.facts.kind === 'invalid' ? keyFromAnswer(resource, exchange.response.body) : createdKeyIn(resource, body, exchange.response.body);
}

/**
 * Deletes one item the run created; a delete answered with neither success nor 404/410 (gone
 * already, e.g. deleted by the case itself) leaves it, and it is listed as left behind.
 */
export async function deleteItem(env: RunEnv, resource: Resource, remove: Operation, template: RequestCase, key: string, createdAt: string): Promise<void> {
  const request = { ...template, path: itemPath(resource, remove, template, key, createdAt) };
  const exchange = await send(env, request, FACTS, `delete ${resource.name} ${key}, created by the case before`).catch(() => undefined);
  const status = exchange?.response.status;
  if (status !== undefined && (isSuccess(status) || status === 404 || status === 410)) return;
  // A document that declares no 404 refuses an absent item with another error (RealWorld: 422): gone
  // already if a read of it is refused too. Left behind is what can still be read.
  if (status !== undefined && resource.operations.read !== undefined && (await goneOnRead(env, request))) return;
  const answer = status ?? exchange?.response.error?.kind ?? 'no answer';
  env.leftBehind?.add(resource.name, key, `${operationName(remove)} answered ${answer}`);
}

/** Whether a GET of the item's path (the delete's credentials kept) is answered, and not with a success. */
async function goneOnRead(env: RunEnv, request: RequestCase): Promise<boolean> {
  const { body: _body, payload: _payload, ...rest } = request;
  const read = await send(env, { ...rest, method: 'GET' }, FACTS, 'read the item a refused delete named').catch(() => undefined);
  const status = read?.response.status;
  return status !== undefined && !isSuccess(status);
}

/** Whether two paths relative to the base URL name the same item (their queries aside: credentials). */
function samePath(a: string, b: string): boolean {
  return a.split('?')[0] === b.split('?')[0];
}

/** The request's path and query relative to the target's base URL: where the item was created (a nested item's parent). */
function pathOn(env: RunEnv, url: string): string {
  const base = env.client.baseUrl.replace(/\/+$/, '');
  return url.startsWith(base) ? url.slice(base.length) : new URL(url).pathname;
}
