/**
 * application/x-www-form-urlencoded bodies, read as OpenAPI's form style says (style form,
 * explode true): each key a property, a repeated key an array where the schema says array, and
 * values coerced by the property's type (integers exactly, as bigints beyond 2^53), so the schema
 * check names the field that is wrong. The reader is compiled once from the body's schema.
 */
import { flatten, resolverOf } from '../core/openapi/schema-read.js';
import { firstTypeOf } from '../core/schema/types.js';
import type { JsonValue } from '../core/json/exact-json.js';
import { narrow } from '../core/json/int64.js';

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** A form body as the object its schema describes. */
export type FormReader = (text: string) => Record<string, JsonValue>;

type Schema = Readonly<Record<string, unknown>>;

/** How one property's texts become its value. */
interface FieldReader {
  readonly array: boolean;
  readonly item: (text: string) => JsonValue;
}

const AS_TEXT: FieldReader = { array: false, item: (text) => text };

export function compileFormReader(schema: object, operation: object): FormReader {
  const resolve = resolverOf(operation);
  const flat = flatten(schema as Schema, resolve, 0);
  const properties = (flat.properties ?? {}) as Record<string, Schema>;
  const fields = new Map<string, FieldReader>(
    Object.entries(properties).map(([name, property]) => {
      const read = flatten(property, resolve, 1);
      if (firstTypeOf(read) !== 'array') return [name, { array: false, item: scalarReader(firstTypeOf(read)) }];
      const items = typeof read.items === 'object' && read.items !== null ? flatten(read.items as Schema, resolve, 2) : {};
      return [name, { array: true, item: scalarReader(firstTypeOf(items)) }];
    }),
  );
  return (text) => {
    const form = new URLSearchParams(text);
    const body: Record<string, JsonValue> = {};
    for (const name of new Set(form.keys())) {
      const field = fields.get(name) ?? AS_TEXT;
      const values = form.getAll(name);
      // A repeated key for a single value: the last one wins, as for JSON's repeated keys.
      const value = field.array ? values.map(field.item) : field.item(values[values.length - 1] ?? '');
      Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return body;
  };
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A text as the type says; a text that is not of the type stays a text, for the schema to refuse by name. */
function scalarReader(type: string | undefined): (text: string) => JsonValue {
  switch (type) {
    case 'integer':
      return (text) => {
        if (!INTEGER.test(text)) return NUMBER.test(text) ? Number(text) : text;
        return narrow(BigInt(text));
      };
    case 'number':
      return (text) => (NUMBER.test(text) ? Number(text) : text);
    case 'boolean':
      return (text) => (text === 'true' ? true : text === 'false' ? false : text);
    default:
      return (text) => text;
  }
}
