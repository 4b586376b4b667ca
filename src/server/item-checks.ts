/**
 * How a seeded item is checked: against its resource's schema, as a create would check it. A
 * client-assigned resource's create body carries the identifier, so it is the create schema; a
 * server-assigned one's items are checked by the item schema (the create body has no identifier).
 * Int64 bounds are widened as the request validator widens them (compileDataCheck: the one recipe); a problem is said as a config
 * file's problems are ("pets[1].name must be a string, not 5").
 */
import type { Resource } from '../core/resources/model.js';
import { KeyProblem } from './options/config-error.js';
import { compileDataCheck, type DataCheck, type JsonSchema } from './options/schema-check.js';

/** The first thing wrong with `value` as an item of `resource` (at key path `at`), or undefined when it fits. */
export type ItemCheck = (resource: Resource, value: unknown, at: string) => string | undefined;

export function compileItemChecks(): ItemCheck {
  const compiled = new Map<Resource, DataCheck<unknown> | undefined>();
  return (resource, value, at) => {
    if (!compiled.has(resource)) {
      const schema =
        resource.identifier.assignedBy === 'server' ? (resource.itemSchema ?? resource.createSchema) : (resource.createSchema ?? resource.itemSchema);
      compiled.set(resource, schema === undefined ? undefined : compileDataCheck(schema as JsonSchema));
    }
    const check = compiled.get(resource);
    try {
      check?.(value, at);
      return undefined;
    } catch (error) {
      if (error instanceof KeyProblem) return error.message;
      throw error;
    }
  };
}
