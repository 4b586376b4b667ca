/**
 * The schemas config-file faults and seed plants are checked by: the request bodies of the control
 * API's addFault (FaultSpec) and seedPlants (a list of NewPlant), as spec/control-api.yaml declares
 * them and the control API validates them, int64 bounds widened as the request validator widens them.
 */
import { loadControlDocument } from '../../control/control-document.js';
import { FIELD_RULES } from '../../core/resources/overrides.js';
import { MUST_BE, type JsonSchema } from './schema-check.js';

export interface DataSchemas {
  readonly fault: JsonSchema;
  /** A list of plants. In a file an unknown key is refused: it can only be a typo there. */
  readonly plants: JsonSchema;
  /** `resources`: ResourceOverrides (src/core/resources/model.ts) keyed by collection path. */
  readonly resources: JsonSchema;
}

/** A ResourceOverride, key for key; an unknown key is refused (a typo would silently settle nothing). */
const RESOURCE_OVERRIDE: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    id: { type: 'string', minLength: 1 },
    assignedBy: { enum: ['client', 'server', 'either'] },
    stateful: { type: 'boolean' },
    fields: {
      type: 'object',
      additionalProperties: {
        anyOf: [
          { enum: [...FIELD_RULES] },
          { type: 'object', required: ['slugFrom'], additionalProperties: false, properties: { slugFrom: { type: 'string', minLength: 1 } } },
        ],
        [MUST_BE]: `one of ${FIELD_RULES.join(', ')} or {slugFrom: <property>}`,
      },
      [MUST_BE]: 'a mapping of properties to how the server makes them (e.g. {publishedAt: created-time})',
    },
    envelope: { anyOf: [{ type: 'string', minLength: 1 }, { const: false }] },
  },
  [MUST_BE]: 'a mapping with any of name, id, assignedBy, stateful, fields, envelope (e.g. {id: petId})',
};

const RESOURCES: JsonSchema = {
  type: 'object',
  additionalProperties: RESOURCE_OVERRIDE,
  [MUST_BE]: 'a mapping of collection paths to overrides (e.g. "/pets": {id: petId})',
};

let loaded: Promise<DataSchemas> | undefined;

export function dataSchemas(): Promise<DataSchemas> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<DataSchemas> {
  const document = await loadControlDocument();
  const bodySchema = (operationId: string): JsonSchema => {
    const operation = document.operations.find((candidate) => candidate.iid === operationId);
    const schema = operation?.request?.body?.contents?.find((content) => content.mediaType === 'application/json')?.schema;
    if (schema === undefined) throw new Error(`the control document declares no JSON body for ${operationId}; it does not match plantstore`);
    return schema as JsonSchema; // int64 bounds are widened where it is compiled (compileDataCheck: the one recipe)
  };
  const fault = bodySchema('addFault');
  const plants = bodySchema('seedPlants');
  const plant = schemaOf(plants.items);
  // A seed file is JSON, where "quote it" (said of YAML's unquoted 12345) would mislead.
  const properties = Object.fromEntries(
    Object.entries(schemaOf(plant.properties)).map(([key, schema]) => [key, { ...schemaOf(schema), ...(key === 'id' ? {} : { [MUST_BE]: 'a string' }) }]),
  );
  return {
    resources: RESOURCES,
    fault: { ...fault, [MUST_BE]: 'a fault (e.g. {kind: status, status: 503})' },
    plants: {
      ...plants,
      [MUST_BE]: 'a list of plants ({id, name, tag?})',
      items: { ...plant, properties, additionalProperties: false, [MUST_BE]: 'a plant ({id, name, tag?})' },
    },
  };
}

function schemaOf(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};
}
