/**
 * What the runner needs from the generators, as an interface, so that the runner can be driven
 * by contracts/generators in use and by small hand-made sources in tests.
 */
import type fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { CaseContext, CaseFamily, RequestCase } from '../generators/request-cases.js';

/** The generators' own vocabulary; a hand-made source in a test speaks it too. */
export type { CaseContext, CaseFamily, RequestCase } from '../generators/request-cases.js';

export interface CaseSource {
  validCases(operation: Operation, context: CaseContext): fc.Arbitrary<RequestCase>;
  invalidCases(operation: Operation, context: CaseContext): fc.Arbitrary<RequestCase>;
  /** When given, every one of these valid requests is sent on every run (the values that break implementations). */
  boundaryCases?(operation: Operation, context: CaseContext): readonly RequestCase[];
  /** When given, each family becomes a property of its own, so that every kind of invalid request is sent. */
  invalidCaseFamilies?(operation: Operation, context: CaseContext): readonly CaseFamily[];
}
