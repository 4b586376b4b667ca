/**
 * Answers built from stored items, shaped by the schema the operation declares for that answer:
 * an object schema keeps its declared properties (in the document's order), an open one keeps
 * every stored property; a writeOnly property (a password sent at create and stored) is never
 * answered, by either. Compiled once per operation and status; the writer puts bigints down
 * digit for digit and takes JSON.stringify's path for everything else.
 */
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemFields } from '../../store/item-store.js';
import { normalise, type Schema } from '../../core/schema/normalise.js';
import { listEnvelope, wrappedItem, type ListSibling, type SiblingPath } from '../../core/schema/envelope.js';
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

/** How many item texts the lists of a process keep, all together (`rememberingWriter`): ~2 MB at most. */
export const REMEMBERED_ITEMS = 10_000;

/** The texts lists wrote, by item, oldest first; each with the writer that wrote it (two lists may show one item differently). */
const remembered = new Map<ItemFields, { readonly write: ItemWriter; readonly text: string }>();

/**
 * `write`, remembering the texts of the last REMEMBERED_ITEMS items the lists wrote: for a store's
 * resident items only (ItemPage.resident), which never change (a change stores a new object). A list
 * writes the same items again and again: writing them was a quarter of a list answer's CPU and 7.8
 * of the 21 KB a `GET ?limit=20` allocated. Bounded, and for the whole process, not weak or per list:
 * a weak map kept a text for every item a client had ever listed. Items read back from Redis are
 * fresh objects at every read: remembering them would only fill the map.
 */
export function rememberingWriter(write: ItemWriter): ItemWriter {
  return (fields) => {
    const known = remembered.get(fields);
    if (known !== undefined && known.write === write) return known.text;
    const text = write(fields);
    // Reading a character makes V8 flatten the text into one string: kept as concatenated, its
    // pieces were kept too (257 bytes a 39-character item text, against 75 flattened; measured).
    text.charCodeAt(0);
    if (known !== undefined) remembered.delete(fields);
    else if (remembered.size >= REMEMBERED_ITEMS) remembered.delete(remembered.keys().next().value as ItemFields);
    remembered.set(fields, { write, text });
    return text;
  };
}

/** An answer's item writer: inside the envelope `property` where this answer's schema declares it (`{"article": {...}}`), else the item itself. */
export function compileAnswerWriter(
  schema: unknown,
  property: string | undefined,
  options: ItemWriterOptions = {},
): { readonly item: unknown; readonly write: ItemWriter } {
  const inner = wrappedItem(schema, property);
  if (inner === undefined) return { item: schema, write: compileItemWriter(schema, options) };
  const write = compileItemWriter(inner, options);
  const key = `{${JSON.stringify(property)}:`;
  return { item: inner, write: (fields) => `${key}${write(fields)}}` };
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

/** How a list answer is laid out: the array itself, or an envelope (core/schema/envelope.ts) holding it with its siblings. */
export interface ListShape {
  readonly itemSchema: Schema | undefined;
  /** The wrapping object's property that holds the page; undefined when the answer is the array itself. */
  readonly arrayProperty?: string;
  /** Where the envelope says the count and paging facts the stand-in fills. */
  readonly siblings: Readonly<Partial<Record<ListSibling, SiblingPath>>>;
  /** The envelope's other required properties and their schemas, top level first, then inside the siblings' containers (given values made from them). */
  readonly otherRequired: ReadonlyArray<readonly [SiblingPath, Schema]>;
  /** The most items the page's array may hold (its `maxItems`): a longer page would break the document's own schema. */
  readonly maxItems?: number;
}

export function listShape(schema: unknown): ListShape {
  const items = arrayItems(schema);
  if (items !== undefined) return { itemSchema: items, siblings: {}, otherRequired: [], ...maxItemsOf(schema) };
  const envelope = listEnvelope(schema);
  // Neither an array nor an object holding one: answer the array, the closest to what a list is.
  if (envelope === undefined) return { itemSchema: undefined, siblings: {}, otherRequired: [] };
  const shape = objectShape(schema);
  const placed = Object.values(envelope.siblings).map((path) => path.join('\u0000'));
  const containers = new Set(Object.values(envelope.siblings).flatMap((path) => (path.length === 2 ? [path[0]] : [])));
  const otherRequired: (readonly [SiblingPath, Schema])[] = [];
  for (const name of shape.required) {
    if (name === envelope.itemsProperty || placed.includes(name) || containers.has(name)) continue;
    otherRequired.push([[name], shape.properties.get(name) ?? {}]);
  }
  for (const container of containers) {
    const inner = objectShape(shape.properties.get(container));
    for (const name of inner.required) {
      if (!placed.includes(`${container}\u0000${name}`)) otherRequired.push([[container, name], inner.properties.get(name) ?? {}]);
    }
  }
  return {
    itemSchema: envelope.items,
    arrayProperty: envelope.itemsProperty,
    siblings: envelope.siblings,
    otherRequired,
    ...maxItemsOf(shape.properties.get(envelope.itemsProperty)),
  };
}

function maxItemsOf(schema: unknown): { maxItems?: number } {
  const maxItems = normalise(schema).maxItems;
  return typeof maxItems === 'number' && Number.isInteger(maxItems) && maxItems >= 0 ? { maxItems } : {};
}
