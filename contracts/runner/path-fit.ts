/**
 * Whether the ids a resource's create gives can be written in its item path. The identifier the
 * model settles on may not be what the path parameter declares: DigitalOcean's reserved IPv6
 * addresses are created with a `region_slug` (the model's identifier, a free string) and read at
 * `/v2/reserved_ipv6/{reserved_ipv6}` (format ipv6). A slug in that path is an invalid request, and
 * a correct server refuses it: sent as a valid read, delete or write, it was a false alarm. Where
 * the formats differ, nothing is sent to such an item, and the plan says why. Only ids the client
 * gives: one the server assigns is its own to make fit.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { Resource } from '../../src/core/resources/model.js';

/** Formats an identifier's own kind keeps: a uuid identifier writes uuids, an integer one integers. */
const KIND_FORMATS: Readonly<Record<string, 'uuid' | 'integer'>> = { uuid: 'uuid', int32: 'integer', int64: 'integer' };

/** Why the resource's ids cannot name its items in their path, or undefined where they can (or nothing says otherwise). */
export function pathUnfitFor(resource: Resource, operations: readonly Operation[]): string | undefined {
  const name = resource.identifier.parameter;
  // A server-assigned id is the server's to write: the run sends back what it answered.
  if (name === undefined || resource.identifier.assignedBy === 'server') return undefined;
  const items = Object.values(resource.operations).flatMap((ref) => operations.filter((o) => o.method === ref.method && o.path === ref.path));
  for (const operation of items) {
    const schema = operation.request?.path?.find((parameter) => parameter.name === name)?.schema as { readonly format?: unknown } | undefined;
    const format = typeof schema?.format === 'string' ? schema.format : undefined;
    if (format === undefined || keeps(resource.identifier.type, format)) continue;
    return `its items are named in {${name}} (format ${format}), which the ${resource.identifier.property} its create gives does not keep`;
  }
  return undefined;
}

function keeps(type: Resource['identifier']['type'], format: string): boolean {
  const kind = KIND_FORMATS[format];
  if (kind !== undefined) return type.kind === kind;
  return type.kind === 'string' && type.rules?.format === format;
}
