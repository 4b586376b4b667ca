/** Invalid cases: every family that applies to an operation, grouped by what they break. */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { securityOf } from '../../../src/core/openapi/security.js';
import { describeSchema } from '../schema-arbitrary.js';
import { authFamilies } from './auth.js';
import { baseOf } from './base.js';
import { propertyFamilies, shapeFamilies } from './body-families.js';
import { contentTypeFamilies } from './content-type.js';
import { parameterFamilies } from './parameters.js';
import { syntaxFamilies } from './syntax.js';
import type { CaseContext, CaseFamily, RequestCase } from './types.js';

/** Requests a conforming server must refuse, one family at a time, evenly across the kinds of breakage. */
export function invalidCases(operation: Operation, context: CaseContext = {}): fc.Arbitrary<RequestCase> {
  const groups = invalidCaseGroups(operation, context).filter((group) => group.length > 0);
  if (groups.length === 0)
    throw new Error(`${operation.method.toUpperCase()} ${operation.path}: nothing to break (no JSON body, no typed parameter and no credentials required)`);
  // Grouped first so that, say, the four auth families are not drowned by thirty body ones.
  return fc.oneof(...groups.map((group) => fc.oneof(...group.map((family) => family.arbitrary))));
}

/** Every family of invalid cases, for runners that want each one exercised. */
export function invalidCaseFamilies(operation: Operation, context: CaseContext = {}): readonly CaseFamily[] {
  return invalidCaseGroups(operation, context).flat();
}

function invalidCaseGroups(operation: Operation, context: CaseContext): CaseFamily[][] {
  const base = baseOf(operation, context);
  const groups: CaseFamily[][] = [];
  if (base.body !== undefined && base.body.json) {
    const facts = describeSchema(base.body.schema);
    groups.push(propertyFamilies(base, facts));
    groups.push(shapeFamilies(base, facts));
    groups.push(syntaxFamilies(base));
    groups.push(contentTypeFamilies(base, operation));
  }
  groups.push(parameterFamilies(base, operation));
  if (!securityOf(operation).open) groups.push(authFamilies(base, operation, context));
  return groups;
}
