/**
 * The resources the suite drives through stateful sequences: the same model `serve` keeps state
 * by (src/core/resources, inferred from the document's structure), so that a fact about a
 * resource is read one way on both sides.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { operationRoles, roleKey, type OperationRole, type Resource } from '../../src/core/resources/model.js';

/** The resource an operation plays a role in, and that role. */
export function roleOf(resources: readonly Resource[], operation: Operation): OperationRole | undefined {
  return operationRoles({ resources, notes: [] }).get(roleKey(operation.method, operation.path));
}
