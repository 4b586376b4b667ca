/** `verify()`: the conformance suite run against a target, with the project's own generators. */
import { boundaryCases } from '../generators/boundary-cases.js';
import { invalidCaseFamilies, invalidCases, validCases } from '../generators/request-cases.js';
import type { VerifyOptions, VerifyReport } from '../report.js';
import type { CaseSource } from './case-source.js';
import { runVerification } from './run.js';

export { DEFAULTS } from '../options.js';
export { SetupError } from './setup.js';

export const generatedCases: CaseSource = { validCases, invalidCases, invalidCaseFamilies, boundaryCases };

/**
 * Verifies the server at `options.target` against the document: every check, fast-check
 * properties sent concurrently, each kind of failure shrunk to a minimal request.
 * Throws SetupError when it cannot start (unusable document or options, unreachable target).
 */
export function verify(options: VerifyOptions): Promise<VerifyReport> {
  return runVerification(options, generatedCases);
}
