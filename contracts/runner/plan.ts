/** Which properties run for each operation, in which order, and what a phase needs to send their cases. */
import fc from 'fast-check';
import { type Operation } from '../../src/core/openapi/load-document.js';
import { jsonRequestBody, operationName, sameRouteAs } from '../../src/core/openapi/operation.js';
import { securityOf } from '../../src/core/openapi/security.js';
import { keepsUnsent } from '../../src/core/conformance/replace-kind.js';
import type { Resource } from '../../src/core/resources/model.js';
import type { CheckContext } from '../checks/index.js';
import type { CaseSource, RequestCase } from './case-source.js';
import { canDrawFresh, runIdentifierOf, type RunIdentifier } from './identifier.js';
import { lifecycleProperty } from './lifecycle/sequence.js';
import { modelProperty } from './model.js';
import { boundaryProperty, duplicateProperty, invalidProperties, invalidProperty as defineInvalid, validProperty } from './properties.js';
import { missingCredentials } from '../generators/request-cases/credentials.js';
import type { Property } from './property.js';
import { alignedSource } from './item-identifier.js';
import { roleOf } from './resources.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';
import { keepFor, tidyFor, type Tidy } from './tidy.js';
import { owningFor, type Owning } from './owned-items.js';
import { pathUnfitFor } from './path-fit.js';
import { breather } from './breathe.js';

export interface Plan {
  readonly operation: Operation;
  readonly context: CheckContext;
  readonly properties: readonly Property[];
  /** "valid" for the only operation, "createPlant/valid" when there are several. */
  readonly key: (property: Property) => string;
  /** The identifier of this operation's resource, when the client assigns it: its property and the ids to draw (its type, an integer space narrowed by what the target takes). */
  readonly identifier?: RunIdentifier | undefined;
  /** What the plan leaves out for this operation and why (the coverage report and --dry-run list it). */
  readonly skipped?: readonly PlanSkip[];
  /**
   * A replace or update: its body names the item its path names (item-identifier.ts aligns them), so its
   * id is sent as generated, never freshened, and a refusal is not retried with another id.
   */
  readonly bodyNamesPathItem?: true;
  /** Deletes what a case of this operation created (tidy.ts), or lists it as left behind where nothing can be deleted, or under --keep-created. */
  readonly tidy?: Tidy | undefined;
  /** A write to an item: each case runs on items the run created (owned-items.ts); run.ts puts it in the env. */
  readonly owning?: Owning | undefined;
}

/** Requests the suite does not send for an operation, and why ("no credentials for apiKey …: pass --auth …"). */
export interface PlanSkip {
  /** The properties (kinds of request) left out, e.g. "valid", "boundary", "invalid body". */
  readonly what: string;
  readonly reason: string;
}

/** The environment a run sends through; `counting` runs count towards progress (shrinking does not). */
export type EnvFor = (operation: Operation, counting: boolean) => RunEnv;

export function planFor(operations: readonly Operation[], source: CaseSource, settings: Settings, resources: readonly Resource[] = []): Plan[] {
  return operations.map(plannerFor(operations, source, settings, resources));
}

/**
 * planFor a breath at a time (breathe.ts: a large document's plans take seconds), ending early with
 * the plans made so far once `stopped()` says the run was halted.
 */
export async function planInBreaths(
  operations: readonly Operation[],
  source: CaseSource,
  settings: Settings,
  resources: readonly Resource[],
  stopped: () => boolean,
): Promise<Plan[]> {
  const planOf = plannerFor(operations, source, settings, resources);
  const breathe = breather();
  const plans: Plan[] = [];
  for (const operation of operations) {
    await breathe();
    if (stopped()) break;
    plans.push(planOf(operation));
  }
  return plans;
}

function plannerFor(operations: readonly Operation[], source: CaseSource, settings: Settings, resources: readonly Resource[]): (operation: Operation) => Plan {
  const { caseContext, expectUniqueIds } = settings;
  const propertySettings = { runs: settings.runs, expectUniqueIds };
  const find = (resource: Resource, role: keyof Resource['operations']): Operation | undefined => {
    const ref = resource.operations[role];
    return ref === undefined ? undefined : operations.find((o) => o.method === ref.method && o.path === ref.path);
  };
  // One per resource: its operations draw alike, and a pattern's variety is sampled once.
  const identifiers = new Map<Resource, RunIdentifier | undefined>();
  const identifierOf = (resource: Resource | undefined): RunIdentifier | undefined => {
    if (resource === undefined) return undefined;
    if (!identifiers.has(resource)) identifiers.set(resource, runIdentifierOf(resource));
    return identifiers.get(resource);
  };
  return (operation) => {
    const missing = missingCredentials(operation, caseContext);
    if (missing !== undefined) return authOnlyPlan(operation, source, settings, operations.length, missing);
    const played = roleOf(resources, operation);
    const resource = played?.resource;
    // A replace or update names its item twice (path and body): valid cases name the same one; a create's
    // text id the client may leave out is made unique (item-identifier.ts).
    const role = played?.role;
    const cases =
      played !== undefined && (role === 'create' || role === 'replace' || role === 'update') ? alignedSource(source, played.resource, operation, role) : source;
    const creates = jsonRequestBody(operation) !== undefined;
    const identifier = identifierOf(resource);
    // Scenarios that need never-used ids (duplicate, model, lifecycle) are left out where none can be drawn, and the plan says why.
    const fresh = canDrawFresh(identifier);
    // Ids the create gives that its item path refuses (path-fit.ts): no lifecycle, and the plan says why.
    const unfit = played?.role === 'create' && resource !== undefined && hasLife(resource) ? pathUnfitFor(resource, operations) : undefined;
    // Invalid requests first: a lenient target that takes one (say id 1.5 as 1) should not find
    // that id already stored by a valid create and refuse it for the wrong reason.
    // A request invalid for one of several operations on a route may be another's valid one (Box's
    // "#" alternatives): only a request without credentials every one of them demands is invalid for all.
    const twins = sameRouteAs(operation, operations);
    const shared = twins.length === 0 ? undefined : twins.every((o) => !securityOf(o).open) ? new Set(['auth'] as const) : new Set<never>();
    const properties = [
      ...invalidProperties(operation, cases, caseContext, propertySettings, shared),
      ...(settings.model && creates && fresh ? [modelProperty(operation, cases, caseContext, propertySettings, shared)] : []),
      validProperty(operation, cases, caseContext, propertySettings),
      ...boundaryProperty(operation, cases, caseContext),
      ...(creates && fresh ? [duplicateProperty(operation, cases, caseContext, propertySettings)] : []),
      // Each resource's life, once, from its create operation: on by default wherever the model finds one.
      ...(played?.role === 'create' && resource !== undefined && hasLife(resource) && fresh && unfit === undefined
        ? [
            lifecycleProperty(
              resource,
              {
                create: operation,
                list: find(resource, 'list'),
                read: find(resource, 'read'),
                delete: find(resource, 'delete'),
                update: find(resource, 'update'),
                replace: find(resource, 'replace'),
              },
              cases,
              caseContext,
              Math.max(10, Math.ceil(settings.runs / 6)),
            ),
          ]
        : []),
    ];
    const prefix = operations.length === 1 ? '' : `${operationName(operation)}/`;
    const limitParameter = played?.role === 'list' ? resource?.list?.limit : undefined;
    // Said where it left something out: an operation with a body (the create; a list or read never had these scenarios).
    const unfreshable = identifier?.kind === 'string' && creates ? identifier.unfreshable : undefined;
    const remove = played?.role === 'create' && resource !== undefined && !settings.keepCreated ? find(resource, 'delete') : undefined;
    const [template] =
      remove === undefined ? [] : fc.sample(source.validCases(remove, { ...caseContext, extraProperties: false }), { seed: settings.seed, numRuns: 1 });
    const owning = owningFor(operation, resources, { operations, source, settings, identifierOf: (r) => identifierOf(r) });
    const skipped: PlanSkip[] = [
      ...(shared === undefined
        ? []
        : [
            {
              what: shared.size === 0 ? 'invalid requests' : 'invalid (non-auth) requests',
              reason: `${twins.map(operationName).join(', ')} take${twins.length === 1 ? 's' : ''} the same method and path: a request invalid for one may be valid for another`,
            },
          ]),
      ...(unfreshable === undefined
        ? []
        : [{ what: 'duplicate, stateful and lifecycle requests (valid creates send their ids as generated)', reason: unfreshable }]),
      ...(unfit === undefined ? [] : [{ what: 'lifecycle requests', reason: unfit }]),
      ...(owning?.unowned === undefined ? [] : [{ what: 'valid, boundary and invalid requests (but those with an invalid item id)', reason: owning.unowned }]),
    ];
    return {
      operation,
      context: {
        operation,
        expectUniqueIds,
        ...(caseContext.tokensValidated === true ? { tokensValidated: true } : {}),
        ...(limitParameter === undefined ? {} : { limitParameter }),
        ...(played?.role === 'create' && resource?.identifier.assignedBy === 'either' ? { assignedIdentifier: resource.identifier.property } : {}),
        // An update (a PATCH, a POST on the item) and a PUT that updates only what it sends (Box's) keep the rest: one reading with serve's.
        ...((role === 'replace' || role === 'update') && resource !== undefined && keepsUnsent(resource, operation, role) ? { keepsUnsent: true } : {}),
        ...(twins.length === 0 ? {} : { sameRoute: twins }),
      },
      properties,
      key: (property) => `${prefix}${property.name}`,
      identifier,
      ...(role === 'replace' || role === 'update' ? { bodyNamesPathItem: true as const } : {}),
      ...(skipped.length === 0 ? {} : { skipped }),
      tidy: tidyOf(resource, played?.role === 'create' ? operation : undefined, remove, template, settings.keepCreated),
      owning,
    };
  };
}

/** What deletes a create's items again, or lists them as left behind where that cannot be done; undefined for other operations. */
function tidyOf(
  resource: Resource | undefined,
  create: Operation | undefined,
  remove: Operation | undefined,
  template: RequestCase | undefined,
  keepCreated: boolean,
): Tidy | undefined {
  if (resource === undefined || create === undefined) return undefined;
  if (keepCreated) return keepFor(resource, create, 'kept: --keep-created');
  if (remove === undefined || template === undefined) return keepFor(resource, create, 'the document has no delete the run can send');
  return tidyFor(resource, create, remove, template);
}

/** A resource whose items can be seen again after their create (listed, read, changed or deleted): one with a life to test. */
function hasLife(resource: Resource): boolean {
  const roles = resource.operations;
  return roles.list !== undefined || roles.read !== undefined || roles.delete !== undefined || roles.update !== undefined || roles.replace !== undefined;
}

/**
 * A secured operation the run has no credentials for: only the requests that must be refused
 * whatever the credentials (none, empty, wrong) are sent; the rest are listed as skipped.
 */
function authOnlyPlan(operation: Operation, source: CaseSource, settings: Settings, count: number, missing: string): Plan {
  const { caseContext, expectUniqueIds } = settings;
  const families = (source.invalidCaseFamilies?.(operation, caseContext) ?? []).filter((family) => family.target === 'auth');
  const share = Math.max(3, Math.ceil(settings.runs / Math.max(1, families.length)));
  const properties = families.map((family, index) => defineInvalid(`auth#${index}`, family.arbitrary, share));
  const prefix = count === 1 ? '' : `${operationName(operation)}/`;
  return {
    operation,
    context: { operation, expectUniqueIds },
    properties,
    key: (property) => `${prefix}${property.name}`,
    skipped: [{ what: 'valid, boundary, duplicate, stateful and invalid (non-auth) requests', reason: missing }],
  };
}

/** Operations the suite sends nothing to, each with the reason: the plan's account of them (coverage, --dry-run). */
export function unplannedOperations(all: readonly Operation[], planned: readonly Operation[], reason: (operation: Operation) => string): Plan[] {
  return all
    .filter((operation) => !planned.includes(operation))
    .map((operation) => ({
      operation,
      context: { operation, expectUniqueIds: false },
      properties: [],
      key: (property) => property.name,
      skipped: [{ what: 'every request', reason: reason(operation) }],
    }));
}

/** About how many requests the plans send, for the progress estimate. */
export function plannedRequests(plans: readonly Plan[]): number {
  return plans.reduce((sum, plan) => sum + plan.properties.reduce((n, p) => n + p.numRuns * p.requestsPerRun, 0), 0);
}
