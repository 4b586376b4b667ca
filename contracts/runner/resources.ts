/**
 * The resources the suite drives through stateful sequences, in the resource model's own types
 * (src/core/resources/model.ts). Read from the document's structure only: a collection path
 * with a create (POST with a JSON body) and, where the document has one, an item path below it
 * ("/plants/{id}") with read/replace/update/delete.
 *
 * A stand-in for `inferResources` (src/core/resources/infer.ts, branch `infer`): once it lands,
 * `resourcesOf` should call it, so that serve and verify read one model.
 */
import type { LoadedDocument, Operation } from '../../src/core/openapi/load-document.js';
import { jsonRequestBody, operationName } from '../../src/core/openapi/operation.js';
import type { IdentifierType, OperationRef, Resource, ResourceRole } from '../../src/core/resources/model.js';
import { describeSchema, INT32, INT64, type JsonSchema } from '../generators/schema-arbitrary.js';

const ITEM_ROLES: ReadonlyArray<readonly [string, ResourceRole]> = [
  ['get', 'read'],
  ['put', 'replace'],
  ['patch', 'update'],
  ['delete', 'delete'],
];

export function resourcesOf(document: LoadedDocument): Resource[] {
  const operations = document.operations;
  const resources: Resource[] = [];
  for (const create of operations) {
    if (create.method !== 'post' || /\}$/.test(create.path)) continue;
    const body = jsonRequestBody(create);
    if (body === undefined) continue;
    const collectionPath = create.path;
    const find = (method: string, path: string): Operation | undefined => operations.find((o) => o.method === method && o.path === path);
    const itemOperations = operations.filter((o) => o.path.startsWith(`${collectionPath}/{`) && /^\/\{[^}/]+\}$/.test(o.path.slice(collectionPath.length)));
    const itemPath = itemOperations[0]?.path;
    const parameter = itemPath === undefined ? undefined : /\{([^}]+)\}$/.exec(itemPath)?.[1];
    const roles: Partial<Record<ResourceRole, OperationRef>> = { create: refOf(create) };
    const list = find('get', collectionPath);
    if (list !== undefined) roles.list = refOf(list);
    if (itemPath !== undefined) {
      for (const [method, role] of ITEM_ROLES) {
        const found = find(method, itemPath);
        if (found !== undefined) roles[role] = refOf(found);
      }
    }
    const createFacts = describeSchema(body.schema as JsonSchema);
    const success = create.responses.find((r) => r.code.startsWith('2'))?.contents?.find((c) => c.schema !== undefined)?.schema;
    const itemFacts = success === undefined ? undefined : describeSchema(success as JsonSchema);
    // The identifier: the item path's parameter when an item carries it, else "id".
    const property = parameter !== undefined && (createFacts.properties.has(parameter) || itemFacts?.properties.has(parameter) === true) ? parameter : 'id';
    const idSchema = createFacts.properties.get(property) ?? itemFacts?.properties.get(property) ?? parameterSchema(itemOperations[0], parameter);
    const limit = list?.request?.query?.find(
      (q) => isInteger(q.schema as JsonSchema | undefined) && /^(limit|per_?page|page_?size|size|count|max)$/i.test(q.name),
    );
    const name =
      collectionPath
        .split('/')
        .filter((s) => s !== '' && !s.startsWith('{'))
        .pop() ?? collectionPath;
    resources.push({
      name,
      collectionPath,
      ...(itemPath === undefined ? {} : { itemPath }),
      parentParameters: [...collectionPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
      identifier: {
        ...(parameter === undefined ? {} : { parameter }),
        property,
        assignedBy: createFacts.properties.has(property) ? 'client' : 'server',
        type: identifierType(idSchema),
      },
      operations: roles,
      ...(list === undefined ? {} : { list: { ...(limit === undefined ? {} : { limit: limit.name }), filters: [] } }),
      createSchema: body.schema,
      ...(success === undefined ? {} : { itemSchema: success }),
      webhooks: [],
      source: 'inferred',
    });
  }
  return resources;
}

function refOf(operation: Operation): OperationRef {
  return { method: operation.method, path: operation.path, name: operationName(operation) };
}

function parameterSchema(operation: Operation | undefined, parameter: string | undefined): JsonSchema | undefined {
  return operation?.request?.path?.find((p) => p.name === parameter)?.schema as JsonSchema | undefined;
}

function isInteger(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && describeSchema(schema).types?.has('integer') === true;
}

export function identifierType(schema: JsonSchema | undefined): IdentifierType {
  if (schema === undefined) return { kind: 'string' };
  const facts = describeSchema(schema);
  if (facts.types?.has('integer') === true || facts.types?.has('number') === true) {
    const bounds = facts.integerFormat === 'int32' ? { min: BigInt(INT32.min), max: BigInt(INT32.max) } : INT64;
    return { kind: 'integer', minimum: facts.integerRange.min ?? bounds.min, maximum: facts.integerRange.max ?? bounds.max };
  }
  const format = (schema as { format?: unknown }).format;
  return format === 'uuid' ? { kind: 'uuid' } : { kind: 'string' };
}

/** The resource an operation plays a role in, and that role. */
export function roleOf(resources: readonly Resource[], operation: Operation): { resource: Resource; role: ResourceRole } | undefined {
  for (const resource of resources) {
    for (const [role, ref] of Object.entries(resource.operations) as Array<[ResourceRole, OperationRef]>) {
      if (ref.method === operation.method && ref.path === operation.path) return { resource, role };
    }
  }
  return undefined;
}
