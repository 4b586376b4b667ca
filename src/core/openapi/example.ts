/**
 * A request body to start from, for people (the inspector's create form): the document's own
 * example for the operation's JSON body (the media type's `examples`/`example`, else the schema's
 * `example`/`examples`), else the one small valid value (core/schema/value.ts) of a request: its
 * required properties but the readOnly ones. Best effort: a `pattern` or a `not` is not honoured,
 * and the control API checks what is finally sent.
 */
import type { JsonValue } from '../json/exact-json.js';
import { minimalValue } from '../schema/value.js';
import { jsonRequestBody, type Operation } from './operation.js';

export interface BodyExample {
  readonly value: JsonValue;
  /** document: written in the document; generated: built from the schema. */
  readonly source: 'document' | 'generated';
}

/** The example of `operation`'s JSON request body; undefined when it takes none. */
export function requestBodyExample(operation: Pick<Operation, 'request'>): BodyExample | undefined {
  const body = jsonRequestBody(operation);
  if (body === undefined) return undefined;
  const content = operation.request?.body?.contents?.find((candidate) => candidate.mediaType === body.mediaType);
  const given = content?.examples?.find((example) => 'value' in example && example.value !== undefined);
  if (given && 'value' in given) return { value: given.value as JsonValue, source: 'document' };
  const schema = body.schema as Schema;
  const own = schemaExample(schema);
  if (own !== undefined) return { value: own, source: 'document' };
  return { value: minimalValue(schema, { direction: 'request' }), source: 'generated' };
}

type Schema = Readonly<Record<string, unknown>>;

function schemaExample(schema: Schema): JsonValue | undefined {
  if (schema.example !== undefined) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  return undefined;
}
