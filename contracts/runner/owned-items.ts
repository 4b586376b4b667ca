/**
 * Writes touch only what the run created (issue 19): a PUT, PATCH or DELETE of an item, or a POST
 * under one (`/posts/{id}/comments`), is sent to an item the case created just before, never to an
 * id drawn from the schema, which on a shared target names someone's data (at --runs 20 against
 * json-server, drawn ids replaced and deleted the seeded posts). Reads still use drawn ids: they change nothing.
 *
 * Per case: each item the path names is created with its resource's create (parents first), the
 * case's path (and a body naming the same item) is made to name it, the case runs, and the items
 * are deleted again, children first. An invalid case about the id itself ("path: parameter 'id'
 * is not an integer") keeps its id: the document proves no item has it. Where the run cannot
 * create the item a path names, only such cases are sent, and the plan says why.
 */
import fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess, operationName } from '../../src/core/openapi/operation.js';
import type { Resource } from '../../src/core/resources/model.js';
import type { Exchange } from '../checks/index.js';
import { isJsonObject } from '../generators/json-value.js';
import { credentialHeaderNames } from './auth.js';
import type { CaseSource, RequestCase } from './case-source.js';
import { bodyIdentifierOf, freshIdValue, idIn, withIdIn, type RunIdentifier } from './identifier.js';
import { createdKeyIn, idValue } from './lifecycle/steps.js';
import { createCase } from './properties.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';
import type { OwnedItem } from './item-supply.js';
import { deleteItem, ownedItem } from './tidy.js';
import { pathUnfitFor } from './path-fit.js';

/** Methods that change nothing: their cases may name any item. */
const READS = new Set(['get', 'head', 'options', 'trace']);

/** A path parameter naming an item, and the resource whose item it is. */
export interface OwnedParameter {
  readonly name: string;
  /** Its index among the path's "/"-separated segments. */
  readonly segment: number;
  readonly resource: Resource;
}

/**
 * Runs one case with the items its path names created before and deleted after (RunEnv.around).
 * `value` is the case about to run, where the caller has it: one whose every item id is the invalid
 * part needs no item.
 */
export type Around = (env: RunEnv, run: (env: RunEnv) => Promise<Exchange[]>, value?: unknown) => Promise<Exchange[]>;

export interface Owning {
  readonly around: Around;
  /** A delete of a top-level item: its cases take the items create cases are done with, where there are some (item-supply.ts). */
  readonly takes?: Resource;
  /** Set where the run cannot create an item the path names: only cases with that id invalid are sent. */
  readonly unowned?: string;
}

/** The parameters of a write's path that name items, or why one cannot be created by the run; undefined for a read or a path without parameters. */
export function ownershipOf(
  operation: Operation,
  resources: readonly Resource[],
  /** Undefined where the run can create an item of the resource to write to, else why not. */
  uncreatable: (resource: Resource) => string | undefined,
): { parameters: OwnedParameter[] } | { unowned: string[]; reason: string } | undefined {
  if (READS.has(operation.method.toLowerCase()) || !operation.path.includes('{')) return undefined;
  const segments = operation.path.split('/');
  const parameters: OwnedParameter[] = [];
  const unowned: string[] = [];
  const reasons: string[] = [];
  for (const [segment, text] of segments.entries()) {
    const name = /^\{([^}]+)\}$/.exec(text)?.[1];
    if (name === undefined) continue;
    const prefix = normalized(segments.slice(0, segment + 1).join('/'));
    const resource = resources.find((r) => r.itemPath !== undefined && normalized(r.itemPath) === prefix);
    const why = resource === undefined ? `{${name}} names no resource's item` : uncreatable(resource);
    if (resource !== undefined && why === undefined) parameters.push({ name, segment, resource });
    else {
      unowned.push(name);
      reasons.push(why ?? '');
    }
  }
  if (unowned.length === 0) return { parameters };
  return {
    unowned,
    reason: `it writes to an item the run did not create: ${reasons.join('; ')}; only requests with an invalid ${unowned.map((n) => `{${n}}`).join(', ')} are sent`,
  };
}

function normalized(template: string): string {
  return template.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '');
}

/** What `owningFor` needs of the plan: the operations it may send, the cases, the settings, each resource's identifier. */
export interface OwningDeps {
  readonly operations: readonly Operation[];
  readonly source: CaseSource;
  readonly settings: Settings;
  readonly identifierOf: (resource: Resource) => RunIdentifier | undefined;
}

export function owningFor(operation: Operation, resources: readonly Resource[], deps: OwningDeps): Owning | undefined {
  const find = (resource: Resource, role: 'create' | 'delete'): Operation | undefined => {
    const ref = resource.operations[role];
    return ref === undefined ? undefined : deps.operations.find((o) => o.method === ref.method && o.path === ref.path);
  };
  const sample = (target: Operation): RequestCase | undefined =>
    fc.sample(deps.source.validCases(target, { ...deps.settings.caseContext, extraProperties: false }), { seed: deps.settings.seed, numRuns: 1 })[0];
  const templates = new Map<Operation, RequestCase | undefined>();
  const templateOf = (target: Operation): RequestCase | undefined => {
    if (!templates.has(target)) templates.set(target, sample(target));
    return templates.get(target);
  };
  const ownership = ownershipOf(operation, resources, (resource) => {
    const create = find(resource, 'create');
    if (create === undefined || templateOf(create) === undefined) return `the run cannot create a ${resource.name} item (no create it can send)`;
    const unfit = pathUnfitFor(resource, deps.operations);
    return unfit === undefined ? undefined : `the run cannot name a ${resource.name} item it creates: ${unfit}`;
  });
  if (ownership === undefined) return undefined;
  if ('unowned' in ownership) {
    const broken = ownership.unowned.map((name) => `path: parameter '${name}'`);
    return {
      unowned: ownership.reason,
      around: (env, run) => run({ ...env, rewrite: (c) => (broken.some((b) => c.breaks?.startsWith(b) === true) ? c : undefined) }),
    };
  }
  const { parameters } = ownership;
  // The item the operation acts on is its path's last: a replace's body names that one.
  const own = parameters.at(-1);
  // A delete does not read what the item holds, so any item of the run's will do; a nested item needs its own parent.
  const takes = operation.method.toLowerCase() === 'delete' && parameters.length === 1 ? own?.resource : undefined;
  return {
    ...(takes === undefined ? {} : { takes }),
    around: async (env, run, value) => {
      // Its path keeps the invalid ids it was drawn with (withItems): an item made for it would go unused, so none is (two requests fewer).
      if (breaksEvery(value, parameters)) return run(env);
      const made: OwnedItem[] = [];
      const gone = new Set<OwnedItem>();
      try {
        for (const parameter of parameters) {
          const create = find(parameter.resource, 'create') as Operation;
          const item =
            (takes === undefined ? undefined : env.supply?.take(takes)) ??
            (await createOwn(env, parameter.resource, create, withItems(templateOf(create) as RequestCase, parameters, made), deps));
          // The create was refused or named no item: nothing to write to, so the case is not sent (the create's own cases judge the refusal).
          if (item === undefined) return [];
          made.push(item);
        }
        const exchanges = await run({ ...env, rewrite: (c) => withOwnItem(withItems(c, parameters, made), own, made, env) });
        // An item the case itself deleted is gone: deleting it again could remove another case's item
        // created since under the same key (a short string key is drawn again soon).
        const last = made.at(-1);
        if (last !== undefined && exchanges.some((exchange) => deletedOwn(exchange, last))) gone.add(last);
        const before = made.map((item) => item.request);
        return exchanges.map((exchange) => ({ ...exchange, before: [...before, ...(exchange.before ?? [])] }));
      } finally {
        for (const item of made.reverse()) {
          if (gone.has(item)) continue;
          const remove = find(item.resource, 'delete');
          const template = remove === undefined ? undefined : templateOf(remove);
          if (deps.settings.keepCreated) env.leftBehind?.add(item.resource.name, item.key, 'kept: --keep-created');
          else if (remove === undefined || template === undefined)
            env.leftBehind?.add(item.resource.name, item.key, 'the document has no delete the run can send');
          else await deleteItem(childEnv(env, remove, undefined), item.resource, remove, template, item.key, item.createdAt);
        }
      }
    },
  };
}

/** An env for another operation (the create or delete of an owned item): not counted as cases, no rewriting. */
function childEnv(env: RunEnv, operation: Operation, identifier: RunIdentifier | undefined): RunEnv {
  const extra = env.extraHeaders;
  return {
    client: env.client,
    operation,
    random: env.random,
    identifier,
    onSent: () => undefined,
    onUnsendable: () => undefined,
    ...(env.leftBehind === undefined ? {} : { leftBehind: env.leftBehind }),
    ...(extra === undefined ? {} : { extraHeaders: { headers: extra.headers, credentialNames: credentialHeaderNames(operation) } }),
  };
}

async function createOwn(env: RunEnv, resource: Resource, create: Operation, template: RequestCase, deps: OwningDeps): Promise<OwnedItem | undefined> {
  const identifier = deps.identifierOf(resource);
  // A never-used id where the client sends one: the case's point is the write, not the id (an edge id may be taken).
  const fresh = identifier === undefined ? undefined : freshIdValue(env.random, identifier);
  const exchanges = await createCase(childEnv(env, create, identifier), (fresh === undefined ? undefined : withIdIn(template, fresh, identifier)) ?? template);
  const accepted = exchanges.find((exchange) => isSuccess(exchange.response.status ?? 0));
  if (accepted === undefined) return undefined;
  const payload = accepted.facts.payload;
  const key = createdKeyIn(resource, isJsonObject(payload) ? payload : undefined, accepted.response.body);
  const createdAt = pathOf(accepted.request.url, env.client.baseUrl);
  if (key === undefined) {
    env.leftBehind?.add(resource.name, undefined, `${operationName(create)} answered no ${resource.identifier.property} to delete it by`);
    return undefined;
  }
  return ownedItem(resource, key, createdAt, accepted);
}

/** Whether `value` is a case about each of `parameters` being invalid ("path: parameter 'id' is not an integer"). */
function breaksEvery(value: unknown, parameters: readonly OwnedParameter[]): boolean {
  const breaks = typeof value === 'object' && value !== null ? (value as { readonly breaks?: unknown }).breaks : undefined;
  return typeof breaks === 'string' && parameters.every((parameter) => breaks.startsWith(`path: parameter '${parameter.name}'`));
}

/** The case's path with each owned parameter naming the run's item, except where the case is about that parameter being invalid. */
function withItems(requestCase: RequestCase, parameters: readonly OwnedParameter[], made: readonly OwnedItem[]): RequestCase {
  const at = requestCase.path.indexOf('?');
  const base = at < 0 ? requestCase.path : requestCase.path.slice(0, at);
  const query = at < 0 ? '' : requestCase.path.slice(at);
  const segments = base.split('/');
  for (const [index, parameter] of parameters.entries()) {
    const item = made[index];
    if (item === undefined || segments[parameter.segment] === undefined) continue;
    if (requestCase.breaks?.startsWith(`path: parameter '${parameter.name}'`) === true) continue;
    segments[parameter.segment] = encodeURIComponent(item.key);
  }
  const path = `${segments.join('/')}${query}`;
  return path === requestCase.path ? requestCase : { ...requestCase, path };
}

/**
 * A body that named the path's item (a replace's id, aligned with its path) names the run's item too,
 * except in a case about that id being invalid (above the int64 maximum, of the wrong type): given
 * the run's id, it would be a valid request judged as an invalid one.
 */
function withOwnItem(requestCase: RequestCase, own: OwnedParameter | undefined, made: readonly OwnedItem[], env: RunEnv): RequestCase {
  if (own === undefined || env.bodyNamesPathItem !== true) return requestCase;
  const item = made.find((m) => m.resource === own.resource);
  if (item === undefined) return requestCase;
  // A server-assigned id is not drawn (env.identifier is undefined), yet the body may name it.
  const identifier = env.identifier ?? bodyIdentifierOf(item.resource);
  if (requestCase.breaks?.startsWith(`body: property '${identifier.property}' `) === true) return requestCase;
  if (idIn(requestCase, identifier) === undefined) return requestCase;
  const value = idValue(item.resource, item.key);
  return (typeof value === 'bigint' || typeof value === 'string' ? withIdIn(requestCase, value, identifier) : undefined) ?? requestCase;
}

/** The request's path and query relative to the target's base URL. */
function pathOf(url: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return url.startsWith(base) ? url.slice(base.length) : new URL(url).pathname;
}

/** Whether the exchange is an accepted DELETE of the item's own path. */
function deletedOwn(
  exchange: { readonly request: { readonly method: string; readonly url: string }; readonly response: { readonly status?: number } },
  item: OwnedItem | undefined,
): boolean {
  if (item === undefined || exchange.request.method.toUpperCase() !== 'DELETE' || !isSuccess(exchange.response.status ?? 0)) return false;
  const path = new URL(exchange.request.url).pathname;
  return path.endsWith(`/${encodeURIComponent(item.key)}`);
}
