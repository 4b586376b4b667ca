/**
 * A valid request to an item path whose body also carries the item's identifier (PUT
 * /user/{username} with a User, PATCH /pets/{id} with an id): the body names the item the path
 * names. The document never says the two may differ, and a server that refuses a body naming
 * another item (plantstore's idMismatch) or renames the item is right either way; two random
 * values would make every such request a coin toss between "refused" and "renamed".
 *
 * And a create that gives a text identifier the client may also leave out (assignedBy 'either':
 * the Swagger Petstore 3's username): the generator draws the same short texts again and again,
 * and a stateful target rightly refuses a taken one, so each valid create's text id is made
 * unique (the drawn text kept as its start). Integer ids are freshened by ids.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { Resource } from '../../src/core/resources/model.js';
import { isJsonObject, toJsonText, withKey } from '../generators/json-value.js';
import type { CaseSource, RequestCase } from './case-source.js';
import { idValue } from './lifecycle/steps.js';

/** The request with the body's identifier set to the path's, or unchanged where the body has none or is not its payload's plain rendering. */
export function alignItemIdentifier(resource: Resource, operation: Operation, requestCase: RequestCase): RequestCase {
  const { parameter, property } = resource.identifier;
  const payload = requestCase.payload;
  if (parameter === undefined || !isJsonObject(payload) || !Object.prototype.hasOwnProperty.call(payload, property)) return requestCase;
  if (requestCase.body !== toJsonText(payload)) return requestCase;
  const at = operation.path.split('/').indexOf(`{${parameter}}`);
  const segment = at === -1 ? undefined : (requestCase.path.split('?')[0] ?? '').split('/')[at];
  if (segment === undefined) return requestCase;
  let key: string;
  try {
    key = decodeURIComponent(segment);
  } catch {
    return requestCase;
  }
  const changed = withKey(payload, property, idValue(resource, key));
  return { ...requestCase, payload: changed, body: toJsonText(changed) };
}

/** The create with its text identifier made unique, where the client may give one or leave it out and gave one. */
export function freshTextIdentifier(resource: Resource, requestCase: RequestCase): RequestCase {
  const { assignedBy, property, type } = resource.identifier;
  const payload = requestCase.payload;
  if (assignedBy !== 'either' || type.kind === 'integer' || !isJsonObject(payload)) return requestCase;
  const given = payload[property];
  if (typeof given !== 'string' || requestCase.body !== toJsonText(payload)) return requestCase;
  // Only where any text is an identifier: a pattern, length or enum would make the suffix invalid.
  const schema = (resource.createSchema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties?.[property] ?? {};
  if (type.kind === 'string' && ['pattern', 'maxLength', 'enum', 'const', 'format'].some((key) => key in schema)) return requestCase;
  const fresh = type.kind === 'uuid' ? randomUUID() : `${given}-${randomBytes(6).toString('hex')}`;
  const changed = withKey(payload, property, fresh);
  return { ...requestCase, payload: changed, body: toJsonText(changed) };
}

/** The case source with every valid case of `operation` aligned (invalid ones are left as they break). */
export function alignedSource(source: CaseSource, resource: Resource, operation: Operation, role: 'create' | 'replace' | 'update'): CaseSource {
  const align = (requestCase: RequestCase) =>
    role === 'create' ? freshTextIdentifier(resource, requestCase) : alignItemIdentifier(resource, operation, requestCase);
  const boundaryCases = source.boundaryCases;
  return {
    ...source,
    validCases: (of, context) => (of === operation ? source.validCases(of, context).map(align) : source.validCases(of, context)),
    ...(boundaryCases === undefined
      ? {}
      : {
          boundaryCases: (of: Operation, context: Parameters<typeof boundaryCases>[1]) =>
            boundaryCases(of, context).map((c) => (of === operation ? align(c) : c)),
        }),
  };
}
