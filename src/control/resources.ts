import type { LoadedDocument } from '../core/openapi/load-document.js';
import { requestBodyExample } from '../core/openapi/example.js';
import type { Resource, ResourceModel } from '../core/resources/model.js';
import { unwrapValue } from '../core/schema/envelope.js';
import { replaceKindOf } from '../core/conformance/replace-kind.js';
import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/** GET /__control/resources: the resource model computed at start, as JSON (bigints as strings, schemas left out), with each create's example and what each PUT does. */
export const listResources: ControlHandler = (_request, { resources, api }) => json(200, resourceModelJson(resources, api));

/**
 * The model as spec/control-api.yaml's ResourceModel: operations by name, integer bounds as decimal
 * strings; with the document, each resource's `example` (its create body: the document's example,
 * else one built from the schema) and `exampleSource`, for the inspector's create form.
 */
export function resourceModelJson(model: ResourceModel, api?: LoadedDocument): string {
  return JSON.stringify(
    {
      resources: model.resources.map((whole) => {
        const { createSchema: _create, itemSchema: _item, operations, ...resource } = whole;
        const replace = api && replaceKindOf(whole, api.operations);
        return {
          ...resource,
          operations: Object.fromEntries(Object.entries(operations).map(([role, operation]) => [role, operation.name])),
          // What the PUT does to the item: replace (the body becomes it) or merge (only what is sent changes).
          ...(replace === undefined ? {} : { replace }),
          ...(api ? exampleOf({ operations, envelope: resource.envelope }, api) : {}),
        };
      }),
      notes: model.notes,
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

/** The create's example as the item the control API and seed files take: inside its envelope where the resource has one. */
function exampleOf(
  { operations, envelope }: Pick<Resource, 'operations'> & { readonly envelope?: Resource['envelope'] | undefined },
  api: LoadedDocument,
): { example?: unknown; exampleSource?: string } {
  const create = operations.create;
  const operation = create && api.operations.find((candidate) => candidate.method === create.method && candidate.path === create.path);
  const example = operation && requestBodyExample(operation);
  if (!example) return {};
  const item = unwrapValue(example.value, envelope?.request);
  return item === undefined ? {} : { example: item, exampleSource: example.source };
}
