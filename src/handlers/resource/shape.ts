/**
 * Answers built from stored items, shaped by the schema the operation declares for that answer:
 * an object schema keeps its declared properties (in the document's order), an open one keeps
 * every stored property; a writeOnly property (a password sent at create and stored) is never
 * answered, by either. Compiled once per operation and status; the writer puts bigints down
 * digit for digit and takes JSON.stringify's path for everything else.
 */
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemFields } from '../../store/item-store.js';
import type { Schema } from '../../core/schema/normalise.js';
import { arrayItems, objectShape } from '../../core/schema/properties.js';

/** An item as the answer's JSON text. */
export type ItemWriter = (fields: ItemFields) => string;

export interface ItemWriterOptions {
  /** Also answer this property (the identifier under --echo-id) when the schema leaves it out. */
  readonly echo?: string | undefined;
}

/** How one item is written in an answer whose item schema is `schema`. */
export function compileItemWriter(schema: unknown, options: ItemWriterOptions = {}): ItemWriter {
  const shape = objectShape(schema, { direction: 'response' });
  if (shape.open) return shape.writeOnly.size === 0 ? writeAll : writeAllBut(shape.writeOnly);
  const names = [...shape.properties.keys()];
  if (options.echo !== undefined && !shape.properties.has(options.echo)) names.push(options.echo);
  // Each property's `"name":` is written once, here.
  const keys = names.map((name) => [name, `${JSON.stringify(name)}:`] as const);
  return (fields) => {
    let text = '';
    for (const [name, key] of keys) {
      if (!Object.hasOwn(fields, name)) continue;
      text += (text === '' ? '{' : ',') + key + jsonText(fields[name] as JsonValue);
    }
    return text === '' ? '{}' : `${text}}`;
  };
}

function writeAll(fields: ItemFields): string {
  return jsonText(fields as JsonValue);
}

/** Every stored property but the writeOnly ones. */
function writeAllBut(hidden: ReadonlySet<string>): ItemWriter {
  return (fields) => jsonText(Object.fromEntries(Object.entries(fields).filter(([name]) => !hidden.has(name))) as JsonValue);
}

/** Exact JSON text: a bigint as its digits; a value without bigints as JSON.stringify writes it. */
export function jsonText(value: JsonValue): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
      return `{${Object.entries(value)
        .map(([key, child]) => `${JSON.stringify(key)}:${jsonText(child)}`)
        .join(',')}}`;
  }
}

/** The item schema of a list answer: the array's items, or the items of the wrapping object's array property. */
export interface ListShape {
  readonly itemSchema: Schema | undefined;
  /** The wrapping object's property that holds the page; undefined when the answer is the array itself. */
  readonly arrayProperty?: string;
  /** The wrapper's property for the number of items in the collection (total, totalCount, …), when declared. */
  readonly totalProperty?: string;
  /** The wrapper's property for where the next page starts (next, nextCursor, …), when declared. */
  readonly nextProperty?: string;
  /** The wrapper's other required properties and their schemas (given values made from them). */
  readonly otherRequired: ReadonlyArray<readonly [string, Schema]>;
}

const TOTAL_NAMES = ['total', 'totalCount', 'total_count', 'totalItems', 'total_items', 'count'];
const NEXT_NAMES = ['next', 'nextCursor', 'next_cursor', 'nextPageToken', 'next_page_token', 'cursor'];

/** How a list answer is laid out, from its schema. */
export function listShape(schema: unknown): ListShape {
  const items = arrayItems(schema);
  if (items !== undefined) return { itemSchema: items, otherRequired: [] };
  const shape = objectShape(schema);
  for (const [name, property] of shape.properties) {
    const propertyItems = arrayItems(property);
    if (propertyItems === undefined) continue;
    const totalProperty = TOTAL_NAMES.find((candidate) => shape.properties.has(candidate));
    const nextProperty = NEXT_NAMES.find((candidate) => shape.properties.has(candidate));
    const otherRequired = [...shape.required]
      .filter((required) => required !== name && required !== totalProperty && required !== nextProperty)
      .map((required) => [required, shape.properties.get(required) ?? {}] as const);
    return {
      itemSchema: propertyItems,
      arrayProperty: name,
      ...(totalProperty !== undefined ? { totalProperty } : {}),
      ...(nextProperty !== undefined ? { nextProperty } : {}),
      otherRequired,
    };
  }
  // Neither an array nor an object holding one: answer the array, the closest to what a list is.
  return { itemSchema: undefined, otherRequired: [] };
}
