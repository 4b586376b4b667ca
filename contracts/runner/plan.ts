/** Which properties run for each operation, in which order, and what a phase needs to send their cases. */
import { type Operation } from '../../src/core/openapi/load-document.js';
import { operationName } from '../../src/core/openapi/operation.js';
import type { CheckContext } from '../checks/index.js';
import type { CaseSource } from './case-source.js';
import { modelProperty } from './model.js';
import { boundaryProperty, duplicateProperty, invalidProperties, validProperty } from './properties.js';
import type { Property } from './property.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';

export interface Plan {
  readonly operation: Operation;
  readonly context: CheckContext;
  readonly properties: readonly Property[];
  /** "valid" for the only operation, "createPlant/valid" when there are several. */
  readonly key: (property: Property) => string;
}

/** The environment a run sends through; `counting` runs count towards progress (shrinking does not). */
export type EnvFor = (operation: Operation, counting: boolean) => RunEnv;

export function planFor(operations: readonly Operation[], source: CaseSource, settings: Settings): Plan[] {
  const { caseContext, expectUniqueIds } = settings;
  const propertySettings = { runs: settings.runs, expectUniqueIds };
  return operations.map((operation) => {
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

/** About how many requests the plans send, for the progress estimate. */
export function plannedRequests(plans: readonly Plan[]): number {
  return plans.reduce((sum, plan) => sum + plan.properties.reduce((n, p) => n + p.numRuns * p.requestsPerRun, 0), 0);
}
