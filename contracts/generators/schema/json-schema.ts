/**
 * The part of JSON Schema the generators read, and the error they throw when a schema cannot be
 * generated from. The schema is read as prism-http hands it over (dereferenced, draft-07 flavoured,
 * with `x-stoplight.explicitProperties`), but plain JSON Schema from draft 4 to 2020-12 works too.
 */
import { PlantstoreError } from '../../../src/core/errors.js';
export type SchemaType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';

export type JsonSchemaDefinition = JsonSchema | boolean;

/**
 * The part of JSON Schema the generators read. Structural, so prism-http's JSONSchema7 (what
 * `operation.request.body.contents[i].schema` is typed as) is accepted as it is.
 */
export interface JsonSchema {
  readonly $ref?: string;
  readonly $schema?: string;
  readonly type?: SchemaType | readonly SchemaType[];
  /** OpenAPI 3.0; prism already turns it into `type: [..., 'null']`. */
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly allOf?: readonly JsonSchemaDefinition[];
  readonly anyOf?: readonly JsonSchemaDefinition[];
  readonly oneOf?: readonly JsonSchemaDefinition[];
  readonly properties?: { readonly [key: string]: JsonSchemaDefinition };
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchemaDefinition;
  readonly patternProperties?: { readonly [pattern: string]: JsonSchemaDefinition };
  readonly propertyNames?: JsonSchemaDefinition;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly items?: JsonSchemaDefinition | readonly JsonSchemaDefinition[];
  readonly prefixItems?: readonly JsonSchemaDefinition[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** draft 4: boolean modifier of minimum; draft 6+: the exclusive bound itself. */
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly multipleOf?: number;
  /** prism-http's record of the keywords the author wrote; the rest (e.g. int64 bounds) are prism's. */
  readonly 'x-stoplight'?: { readonly explicitProperties?: readonly string[] };
}

/** A schema the generators cannot generate from (unsatisfiable, unresolvable $ref, unsupported pattern). */
export class SchemaError extends PlantstoreError {
  override readonly name = 'SchemaError';

  constructor(message: string) {
    super('schema', message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-negative integer, as JSON Schema's count keywords (minLength, maxItems, ...) must be. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
