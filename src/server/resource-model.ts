/**
 * The resources `serve` keeps state for. Until inference (src/core/resources/infer.ts) lands, the
 * model is built here, by hand, for the bundled Plant Store document: its one stateful operation,
 * createPlant, stores items of 'plants' keyed by their client-assigned int64 id. This is the one
 * place that says so; a caller of startServer may pass its own model (`resources`).
 */
import { loadDocument, type LoadedDocument } from '../core/openapi/load-document.js';
import { jsonRequestBody } from '../core/openapi/operation.js';
import { INT64_MAX, INT64_MIN } from '../core/json/int64.js';
import type { Resource, ResourceModel } from '../core/resources/model.js';
import { STATEFUL_OPERATION } from '../handlers/bind-api.js';
import { PLANTS } from '../store/plant-store.js';

export function plantStoreModel(document: LoadedDocument): ResourceModel {
  const create = document.operations.find((operation) => operation.iid === STATEFUL_OPERATION);
  if (!create) return { resources: [], notes: [] };
  const body = jsonRequestBody(create);
  const plants: Resource = {
    name: PLANTS,
    collectionPath: create.path,
    parentParameters: [],
    identifier: { property: 'id', assignedBy: 'client', type: { kind: 'integer', minimum: INT64_MIN, maximum: INT64_MAX } },
    operations: { create: { method: create.method, path: create.path, name: STATEFUL_OPERATION } },
    ...(body ? { createSchema: body.schema } : {}),
    webhooks: [],
    source: 'inferred',
  };
  return { resources: [plants], notes: [] };
}

/** The model served for `document`: the caller's, else the one built for it. */
export function resourceModelOf(document: LoadedDocument, given?: ResourceModel): ResourceModel {
  return given ?? plantStoreModel(document);
}

/** The bundled document's model (for tools and tests that serve it). */
export async function bundledResourceModel(): Promise<ResourceModel> {
  return plantStoreModel(await loadDocument());
}
