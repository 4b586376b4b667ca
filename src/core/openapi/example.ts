/**
 * A request body to start from, for people (the inspector's create form): the document's own
 * example for the operation's JSON body (the media type's `examples`/`example`, else the schema's
 * `example`/`examples`), else the one small valid value (core/schema/value.ts) of a request: its
 * required properties but the readOnly ones, with every other property the schema gives an example
 * or default for (the values the document shows). A readOnly property is left out of either: the
 * client does not send it. Best effort: a `pattern` or a `not` is not honoured, and the control API
 * checks what is finally sent.
 */
import type { JsonValue } from '../json/exact-json.js';
import { normalise } from '../schema/normalise.js';
import { objectShape } from '../schema/properties.js';
import { typeOf } from '../schema/types.js';
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
  const schema = body.schema as Schema;
  if (given && 'value' in given) return { value: withoutReadOnly(given.value as JsonValue, schema), source: 'document' };
  const own = schemaExample(schema);
  if (own !== undefined) return { value: withoutReadOnly(own, schema), source: 'document' };
  return { value: withStatedValues(schema, 0), source: 'generated' };
}

type Schema = Readonly<Record<string, unknown>>;
type JsonObject = Record<string, JsonValue>;

const isObject = (value: JsonValue | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An example as a client sends it: the properties the schema marks readOnly (an id, a creation time) left out. */
function withoutReadOnly(value: JsonValue, schema: Schema): JsonValue {
  if (!isObject(value)) return value;
  const { readOnly } = objectShape(schema);
  return Object.fromEntries(Object.entries(value).filter(([name]) => !readOnly.has(name)));
}

/** Nested objects this deep are left to minimalValue (a recursive schema ends here). */
const MAX_DEPTH = 4;

/** The minimal request value, with each optional property's example or default, and nested objects' too. */
function withStatedValues(schema: Schema, depth: number): JsonValue {
  const minimal = minimalValue(schema, { direction: 'request' });
  if (!isObject(minimal) || depth >= MAX_DEPTH) return minimal;
  const value: JsonObject = { ...minimal };
  for (const [name, property] of objectShape(schema, { direction: 'request' }).properties) {
    // A required property's own example or default is minimalValue's already.
    if (name in value && !isObject(value[name])) continue;
    const stated = statedExample(property);
    if (stated !== undefined) value[name] = stated;
    else if (typeOf(property) === 'object') {
      const nested = withStatedValues(property, depth + 1);
      if (isObject(nested) && Object.keys(nested).length > 0) value[name] = nested;
    }
  }
  return value;
}

/** What the document states a property holds: const, default, example, examples[0]; never a guess (enum's first value is one). */
function statedExample(property: unknown): JsonValue | undefined {
  const flat = normalise(property);
  if (flat.const !== undefined) return flat.const as JsonValue;
  if (flat.default !== undefined) return flat.default as JsonValue;
  return schemaExample(flat);
}

function schemaExample(schema: Schema): JsonValue | undefined {
  if (schema.example !== undefined) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  return undefined;
}
