/** Which properties run for each operation, in which order, and what a phase needs to send their cases. */
import { type Operation } from '../../src/core/openapi/load-document.js';
import { operationName } from '../../src/core/openapi/operation.js';
import type { CheckContext } from '../checks/index.js';
import type { CaseSource } from './case-source.js';
import { modelProperty } from './model.js';
import { boundaryProperty, duplicateProperty, invalidProperties, invalidProperty as defineInvalid, validProperty } from './properties.js';
import { missingCredentials } from '../generators/request-cases/credentials.js';
import type { Property } from './property.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';

export interface Plan {
  readonly operation: Operation;
  readonly context: CheckContext;
  readonly properties: readonly Property[];
  /** "valid" for the only operation, "createPlant/valid" when there are several. */
  readonly key: (property: Property) => string;
  /** What the plan leaves out for this operation and why (the coverage report and --dry-run list it). */
  readonly skipped?: readonly PlanSkip[];
}

/** Requests the suite does not send for an operation, and why ("no credentials for apiKey …: pass --auth …"). */
export interface PlanSkip {
  /** The properties (kinds of request) left out, e.g. "valid", "boundary", "invalid body". */
  readonly what: string;
  readonly reason: string;
}

/** The environment a run sends through; `counting` runs count towards progress (shrinking does not). */
export type EnvFor = (operation: Operation, counting: boolean) => RunEnv;

export function planFor(operations: readonly Operation[], source: CaseSource, settings: Settings): Plan[] {
  const { caseContext, expectUniqueIds } = settings;
  const propertySettings = { runs: settings.runs, expectUniqueIds };
  return operations.map((operation) => {
    const missing = missingCredentials(operation, caseContext);
    if (missing !== undefined) return authOnlyPlan(operation, source, settings, operations.length, missing);
    // Invalid requests first: a lenient target that takes one (say id 1.5 as 1) should not find
    // that id already stored by a valid create and refuse it for the wrong reason.
    const properties = [
      ...invalidProperties(operation, source, caseContext, propertySettings),
      ...(settings.model ? [modelProperty(operation, source, caseContext, propertySettings)] : []),
      validProperty(operation, source, caseContext, propertySettings),
      ...boundaryProperty(operation, source, caseContext),
      duplicateProperty(operation, source, caseContext, propertySettings),
    ];
    const prefix = operations.length === 1 ? '' : `${operationName(operation)}/`;
    return { operation, context: { operation, expectUniqueIds }, properties, key: (property) => `${prefix}${property.name}` };
  });
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
