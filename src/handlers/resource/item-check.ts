/**
 * What a replace or update may store: the body keeps the path's identifier, and the item that
 * results is valid against the resource's item schema (checked as the request validator checks
 * bodies: prism's Ajv, true int64 bounds, bigints seen exactly).
 */
import type { IHttpOperation } from '@stoplight/types';
import { failure, type Failure } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import { compileBodyCheck, type BodyCheck } from '../../core/prism/adapter.js';
import type { ItemKey, Resource } from '../../core/resources/model.js';
import type { ItemFields } from '../../store/item-store.js';
import { keyFromValue, keyText } from './identifier.js';
import { singular } from './parts.js';
import { objectShape } from '../../core/schema/properties.js';
import { wrappedItem } from '../../core/schema/envelope.js';
import { requestBodySchema } from '../../core/openapi/operation.js';

export type IdMismatch = (body: ItemFields, key: ItemKey) => Failure | undefined;

/**
 * idMismatch for one operation; none when its body schema marks the identifier readOnly: a client
 * SHOULD NOT send it, and one sent is the server's to ignore (OpenAPI, readOnly), so the path's id is kept.
 */
export function compileIdMismatch(resource: Resource, operation: IHttpOperation): IdMismatch {
  const body = requestBodySchema(operation);
  // The item's own schema, inside its envelope where the body has one.
  const item = wrappedItem(body, resource.envelope?.request) ?? body;
  if (objectShape(item).readOnly.has(resource.identifier.property)) return () => undefined;
  return (fields, key) => idMismatch(resource, fields, key);
}

/** The refusal of a body whose identifier property names another item than the path; undefined when it agrees or has none. */
export function idMismatch(resource: Resource, body: ItemFields, key: ItemKey): Failure | undefined {
  const { property, type } = resource.identifier;
  if (!Object.hasOwn(body, property)) return undefined;
  const given = body[property] as JsonValue;
  if (keyFromValue(type, given) === key) return undefined;
  const said = typeof given === 'bigint' || typeof given === 'number' ? String(given) : JSON.stringify(given);
  return failure('idMismatch', `the body says ${property} is ${said}, the path says ${keyText(key)}; a ${singular(resource)} keeps its identifier`);
}

export type ItemCheck = (fields: ItemFields) => Failure | undefined;

/** The check of a resulting item against the item schema; none when the resource declares no item schema. */
export function compileItemCheck(resource: Resource, operation: IHttpOperation): ItemCheck {
  const schema = resource.itemSchema;
  if (schema === undefined) return () => undefined;
  // Compiled on the first replace or update, not at start: on a large document these were most of start-up.
  let check: BodyCheck | null | undefined;
  return (fields) => {
    check ??= compileBodyCheck(schema as object, operation, 'request', 'item') ?? null;
    if (check === null) return undefined;
    const diagnostics = check(fields as JsonValue);
    if (diagnostics === undefined || diagnostics.length === 0) return undefined;
    const messages = diagnostics.slice(0, 5).map((diagnostic) => diagnostic.message);
    return failure('schemaViolation', `the ${singular(resource)} would no longer be valid, so nothing was stored: ${messages.join('; ')}`);
  };
}
