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
 * `operation.request.body.contents[i].schema` is typed as) is accepted as it is; its keywords may
 * hold undefined, which the generators read as absent.
 */
export interface JsonSchema {
  readonly $ref?: string | undefined;
  readonly $schema?: string | undefined;
  readonly type?: SchemaType | readonly SchemaType[] | undefined;
  /** OpenAPI 3.0; prism already turns it into `type: [..., 'null']`. */
  readonly nullable?: boolean | undefined;
  readonly enum?: readonly unknown[] | undefined;
  readonly const?: unknown;
  readonly allOf?: readonly JsonSchemaDefinition[] | undefined;
  readonly anyOf?: readonly JsonSchemaDefinition[] | undefined;
  readonly oneOf?: readonly JsonSchemaDefinition[] | undefined;
  readonly properties?: { readonly [key: string]: JsonSchemaDefinition } | undefined;
  readonly required?: readonly string[] | undefined;
  readonly additionalProperties?: JsonSchemaDefinition | undefined;
  readonly patternProperties?: { readonly [pattern: string]: JsonSchemaDefinition } | undefined;
  readonly propertyNames?: JsonSchemaDefinition | undefined;
  readonly minProperties?: number | undefined;
  readonly maxProperties?: number | undefined;
  readonly items?: JsonSchemaDefinition | readonly JsonSchemaDefinition[] | undefined;
  readonly prefixItems?: readonly JsonSchemaDefinition[] | undefined;
  readonly minItems?: number | undefined;
  readonly maxItems?: number | undefined;
  readonly uniqueItems?: boolean | undefined;
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
  readonly pattern?: string | undefined;
  readonly format?: string | undefined;
  readonly minimum?: number | undefined;
  readonly maximum?: number | undefined;
  /** draft 4: boolean modifier of minimum; draft 6+: the exclusive bound itself. */
  readonly exclusiveMinimum?: number | boolean | undefined;
  readonly exclusiveMaximum?: number | boolean | undefined;
  readonly multipleOf?: number | undefined;
  /** prism-http's record of the keywords the author wrote; the rest (e.g. int64 bounds) are prism's. */
  readonly 'x-stoplight'?: { readonly explicitProperties?: readonly string[] | undefined } | undefined;
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
