/**
 * One rule for an empty query value (`?uid=`), read by `serve`'s validation and by `verify`'s
 * generators alike, so that the one never sends as valid what the other refuses (issue 19).
 * OpenAPI allows an empty value only where the parameter says `allowEmptyValue: true`: without it,
 * a required parameter's empty value is invalid, and so is a number's, integer's or boolean's (no
 * such value is empty). An optional string's empty value is left to its schema.
 */

/** What the rule reads of a parameter (an OpenAPI parameter object, or prism's IHttpParam). */
export interface EmptyValueFacts {
  readonly required?: boolean;
  readonly allowEmptyValue?: boolean;
  readonly schema?: unknown;
}

export function refusesEmptyValue(parameter: EmptyValueFacts): boolean {
  if (parameter.allowEmptyValue === true) return false;
  if (parameter.required === true) return true;
  const schema = parameter.schema as { type?: unknown } | undefined;
  const types = Array.isArray(schema?.type) ? (schema.type as unknown[]) : [schema?.type];
  return types.every((type) => type === 'integer' || type === 'number' || type === 'boolean');
}
