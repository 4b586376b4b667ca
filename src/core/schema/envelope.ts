/**
 * Envelopes, read once for every side: a body that wraps its item in one property
 * (`{"article": {...}}`, the Rails family's and RealWorld Conduit's style), and a list answer that
 * holds its items in one array property beside a count and paging facts
 * (`{"articles": [...], "articlesCount": 12}`, `{"data": [...], "meta": {"total": 12, "limit": 10}}`).
 * Inference records what it found in the resource model; handlers and the suite unwrap and wrap
 * through these functions, so a body is read the same way everywhere. See docs/resources.md, "Envelopes".
 */
import type { Schema } from './normalise.js';
import { arrayItems, objectShape } from './properties.js';
import { typeOf } from './types.js';

/** The one property an item envelope wraps its item in, and the item's schema. */
export interface ItemWrapper {
  readonly property: string;
  readonly item: Schema;
}

/**
 * The wrapper when `schema` is an object declaring exactly one property, itself an object that
 * declares properties (an item): `{"article": {...}}`. Anything else wraps nothing.
 */
export function itemWrapper(schema: unknown): ItemWrapper | undefined {
  if (schema === undefined || typeOf(schema) !== 'object') return undefined;
  const shape = objectShape(schema);
  if (shape.properties.size !== 1) return undefined;
  const [[property, item]] = [...shape.properties] as [[string, Schema]];
  if (typeOf(item) !== 'object' || objectShape(item).properties.size === 0) return undefined;
  return { property, item };
}

/** The item's schema inside `schema` when it declares `property` as an object (the envelope a resource settled on); else undefined. */
export function wrappedItem(schema: unknown, property: string | undefined): Schema | undefined {
  if (property === undefined || schema === undefined || typeOf(schema) !== 'object') return undefined;
  const inner = objectShape(schema).properties.get(property);
  return inner !== undefined && typeOf(inner) === 'object' ? inner : undefined;
}

/** A body's item: the value of `property` when the body is an object holding it; the body itself where there is no envelope. */
export function unwrapValue(value: unknown, property: string | undefined): unknown {
  if (property === undefined) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, property) ? (value as Readonly<Record<string, unknown>>)[property] : undefined;
}

/** What a list envelope's siblings of the items array say, each filled truthfully by the stand-in. */
export type ListSibling = 'count' | 'limit' | 'offset' | 'page' | 'pages' | 'next' | 'more';

/** Where each sibling is: its property name, or [container, name] inside an object sibling (meta, pagination, …). */
export type SiblingPath = readonly [string] | readonly [string, string];

export interface ListEnvelope {
  /** The property holding the page of items ('articles', 'data'). */
  readonly itemsProperty: string;
  readonly items: Schema;
  readonly siblings: Readonly<Partial<Record<ListSibling, SiblingPath>>>;
}

/**
 * Names per sibling, compared lower-case without '_' and '-'. `count` also takes `<items>Count`
 * (articlesCount). Each needs its type: a number for counts and positions, a string for a cursor,
 * a boolean for "more".
 */
const SIBLING_NAMES: Readonly<Record<ListSibling, readonly string[]>> = {
  count: ['total', 'totalcount', 'totalitems', 'totalresults', 'totalrecords', 'totalelements', 'count'],
  limit: ['limit', 'perpage', 'pagesize', 'size'],
  offset: ['offset', 'skip'],
  page: ['page', 'currentpage', 'pagenumber'],
  pages: ['pages', 'totalpages', 'pagecount', 'lastpage'],
  next: ['next', 'nextcursor', 'nextpagetoken', 'cursor', 'endcursor'],
  more: ['hasmore', 'hasnext', 'hasnextpage', 'more'],
};

const SIBLING_TYPES: Readonly<Record<ListSibling, readonly string[]>> = {
  count: ['integer', 'number'],
  limit: ['integer', 'number'],
  offset: ['integer', 'number'],
  page: ['integer', 'number'],
  pages: ['integer', 'number'],
  next: ['string'],
  more: ['boolean'],
};

/**
 * The list envelope when `schema` is an object with exactly one array property (the items), with
 * the siblings it declares beside it or inside one object sibling (`meta`, `pagination`, `page`).
 */
export function listEnvelope(schema: unknown): ListEnvelope | undefined {
  if (schema === undefined || typeOf(schema) !== 'object') return undefined;
  const shape = objectShape(schema);
  const arrays = [...shape.properties].filter(([, property]) => typeOf(property) === 'array');
  if (arrays.length !== 1) return undefined;
  const [[itemsProperty, array]] = arrays as [[string, Schema]];
  const siblings: Partial<Record<ListSibling, SiblingPath>> = {};
  const countName = `${itemsProperty.toLowerCase().replace(/[-_]/g, '')}count`;
  const place = (names: ReadonlyMap<string, Schema>, at: (name: string) => SiblingPath) => {
    for (const [name, property] of names) {
      const key = name.toLowerCase().replace(/[-_]/g, '');
      const type = typeOf(property);
      const role = (Object.keys(SIBLING_NAMES) as ListSibling[]).find(
        (candidate) =>
          (SIBLING_NAMES[candidate].includes(key) || (candidate === 'count' && key === countName)) && SIBLING_TYPES[candidate].includes(type ?? ''),
      );
      if (role !== undefined && siblings[role] === undefined) siblings[role] = at(name);
    }
  };
  const others = new Map([...shape.properties].filter(([name]) => name !== itemsProperty));
  place(others, (name) => [name]);
  for (const [container, property] of others) {
    if (typeOf(property) !== 'object') continue;
    place(objectShape(property).properties, (name) => [container, name]);
  }
  return { itemsProperty, items: arrayItems(array) ?? {}, siblings };
}
