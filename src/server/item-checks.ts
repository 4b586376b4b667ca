/**
 * How a seeded item is checked: against its resource's schema, as a create would check it. A
 * client-assigned resource's create body carries the identifier, so it is the create schema; a
 * server-assigned one's items are checked by the item schema (the create body has no identifier).
 * Int64 bounds are widened as the request validator widens them (compileDataCheck: the one recipe); a problem is said as a config
 * file's problems are ("pets[1].name must be a string, not 5").
 */
import type { Resource } from '../core/resources/model.js';
import { isPasswordProperty } from '../core/resources/sign-in.js';
import { objectShape } from '../core/schema/properties.js';
import { KeyProblem } from './options/config-error.js';
import { compileDataCheck, type DataCheck, type JsonSchema } from './options/schema-check.js';

/** The first thing wrong with `value` as an item of `resource` (at key path `at`), or undefined when it fits. */
export type ItemCheck = (resource: Resource, value: unknown, at: string) => string | undefined;

export function compileItemChecks(): ItemCheck {
  const compiled = new Map<Resource, DataCheck<unknown> | undefined>();
  const passwords = new Map<Resource, readonly string[]>();
  return (resource, value, at) => {
    if (!compiled.has(resource)) {
      const schema =
        resource.identifier.assignedBy === 'server' ? (resource.itemSchema ?? resource.createSchema) : (resource.createSchema ?? resource.itemSchema);
      compiled.set(resource, schema === undefined ? undefined : compileDataCheck(schema as JsonSchema));
      passwords.set(resource, schema === resource.createSchema ? [] : passwordsOf(resource));
    }
    const check = compiled.get(resource);
    try {
      check?.(withoutPasswords(value, passwords.get(resource) ?? []), at);
      return undefined;
    } catch (error) {
      if (error instanceof KeyProblem) return error.message;
      throw error;
    }
  };
}

/** A seeded user may carry the password its create body asks for, though the item schema it is checked by has none (docs/sign-in.md). */
function passwordsOf(resource: Resource): string[] {
  if (resource.createSchema === undefined) return [];
  return [...objectShape(resource.createSchema).properties].filter(([name, schema]) => isPasswordProperty(name, schema)).map(([name]) => name);
}

function withoutPasswords(value: unknown, names: readonly string[]): unknown {
  if (names.length === 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => !names.includes(name)));
}
