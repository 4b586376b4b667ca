import type { ResourceModel } from '../core/resources/model.js';
import { json } from './answers.js';
import type { ControlHandler } from './context.js';

/** GET /__control/resources: the resource model computed at start, as JSON (bigints as strings, schemas left out). */
export const listResources: ControlHandler = (_request, { resources }) => json(200, resourceModelJson(resources));

/** The model as spec/control-api.yaml's ResourceModel: operations by name, integer bounds as decimal strings. */
export function resourceModelJson(model: ResourceModel): string {
  return JSON.stringify(
    {
      resources: model.resources.map(({ createSchema: _create, itemSchema: _item, operations, ...resource }) => ({
        ...resource,
        operations: Object.fromEntries(Object.entries(operations).map(([role, operation]) => [role, operation.name])),
      })),
      notes: model.notes,
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}
