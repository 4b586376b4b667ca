/**
 * The list operation's paging and filtering query parameters. Paging is recognised by the
 * conventional names (limit, per_page, offset, page, cursor, …); a filter is a query parameter
 * that names a property of an item, an array parameter named for its plural (tags → tag), or a
 * parameter naming the singular of an array-of-strings property (tag → tagList, tags): contains.
 */
import { heldNames } from './held-names.js';
import type { Operation } from '../openapi/operation.js';
import type { ListParameters } from './model.js';
import type { ListEnvelope } from '../schema/envelope.js';
import { arrayItems, type ObjectShape } from '../schema/properties.js';
import { typeOf } from '../schema/types.js';

type Paging = 'limit' | 'offset' | 'page' | 'cursor';

/** Conventional names, compared lower-case without '_' and '-': per_page, perPage and per-page alike. */
const PAGING: Readonly<Record<Paging, readonly string[]>> = {
  limit: ['limit', 'perpage', 'pagesize', 'size', 'max'],
  offset: ['offset', 'skip'],
  page: ['page'],
  cursor: ['cursor', 'after', 'pagetoken'],
};

/** Paging by number needs an integer (or an untyped) parameter; a cursor is any token. */
const NUMERIC: ReadonlySet<Paging> = new Set(['limit', 'offset', 'page']);

export function listParameters(list: Operation, item: ObjectShape | undefined, envelope: ListEnvelope | undefined): ListParameters {
  const paging: Partial<Record<Paging, string>> = {};
  const filters: string[] = [];
  const filterProperties: Record<string, string> = {};
  const filterContains: string[] = [];
  for (const parameter of list.request?.query ?? []) {
    const role = pagingRole(parameter.name, parameter.schema);
    if (role !== undefined && paging[role] === undefined) {
      paging[role] = parameter.name;
      continue;
    }
    const property = filteredProperty(parameter.name, parameter.schema, item) ?? containingProperty(parameter.name, parameter.schema, item);
    if (property === undefined) continue;
    filters.push(parameter.name);
    if (property !== parameter.name) filterProperties[parameter.name] = property;
    if (arrayItems(item?.properties.get(property)) !== undefined && arrayItems(parameter.schema) === undefined) filterContains.push(parameter.name);
  }
  return {
    ...paging,
    filters,
    ...(Object.keys(filterProperties).length > 0 ? { filterProperties } : {}),
    ...(filterContains.length > 0 ? { filterContains } : {}),
    ...(envelope !== undefined ? { itemsProperty: envelope.itemsProperty } : {}),
    ...(envelope !== undefined && Object.keys(envelope.siblings).length > 0 ? { siblings: envelope.siblings } : {}),
  };
}

/**
 * Whether a query parameter is a list's cursor (cursor, after, page_token …): its values are the
 * server's to give, so a drawn one is a page the list never gave (serve refuses it where the list
 * declares a 400, as Ory Kratos does its page_token), and verify's valid requests leave it out.
 */
export function isCursorParameter(name: string, schema: unknown): boolean {
  return pagingRole(name, schema) === 'cursor';
}

function pagingRole(name: string, schema: unknown): Paging | undefined {
  const key = name.toLowerCase().replace(/[-_]/g, '');
  const role = (Object.keys(PAGING) as Paging[]).find((candidate) => PAGING[candidate].includes(key));
  if (role === undefined) return undefined;
  const type = typeOf(schema);
  return NUMERIC.has(role) && type !== undefined && type !== 'integer' && type !== 'number' ? undefined : role;
}

/** The item property a query parameter filters on: its own name (in case and separators: held-names.ts), or (an array parameter) its plural's singular of the same type. */
function filteredProperty(name: string, schema: unknown, item: ObjectShape | undefined): string | undefined {
  if (item === undefined) return undefined;
  // Same name, other type (RealWorld's ?favorited=<username> beside the item's boolean favorited): no filter of it.
  if (item.properties.has(name)) return comparable(typeOf(schema), typeOf(item.properties.get(name))) ? name : undefined;
  // Named otherwise in case and separators only (Twilio's ?FriendlyName= for friendly_name): the property it names.
  const held = heldNames([name], item.properties.keys()).get(name);
  if (held !== undefined) return comparable(typeOf(schema), typeOf(item.properties.get(held))) ? held : undefined;
  const items = arrayItems(schema);
  if (items === undefined) return undefined;
  const singular = [name.replace(/es$/, ''), name.replace(/s$/, '')].find((candidate) => candidate !== name && item.properties.has(candidate));
  if (singular === undefined) return undefined;
  const type = typeOf(item.properties.get(singular));
  return type !== undefined && type === typeOf(items) ? singular : undefined;
}

/** Whether a query parameter typed `parameter` can hold values of a property typed `property` (an untyped side: yes). */
function comparable(parameter: string | undefined, property: string | undefined): boolean {
  if (parameter === undefined || property === undefined || parameter === property) return true;
  return (parameter === 'integer' && property === 'number') || (parameter === 'number' && property === 'integer') || parameter === 'array';
}

/** The array-of-strings property a one-value parameter names the singular of (`tag` → tagList, tags), kept when the array contains the value. */
function containingProperty(name: string, schema: unknown, item: ObjectShape | undefined): string | undefined {
  if (item === undefined || arrayItems(schema) !== undefined || !comparable(typeOf(schema), 'string')) return undefined;
  return [`${name}List`, `${name}s`, `${name}es`].find((candidate) => typeOf(arrayItems(item.properties.get(candidate))) === 'string');
}

/**
 * The page a list answers when asked for no limit, by the document's word: the page-size parameter's
 * declared default (RealWorld's 20), a whole number. serve answers that many; verify reads a list
 * that fills it as perhaps incomplete.
 */
export function limitDefault(list: Operation, parameters: ListParameters | undefined): number | undefined {
  const name = parameters?.limit;
  const schema = name === undefined ? undefined : list.request?.query?.find((parameter) => parameter.name === name)?.schema;
  const value = (schema as { readonly default?: unknown } | undefined)?.default;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** What a list's filter parameter keeps: the items whose `property` equals a value, or (contains) holds one in its array. */
export function filterOn(list: ListParameters | undefined, parameter: string): { readonly property: string; readonly contains: boolean } {
  return { property: list?.filterProperties?.[parameter] ?? parameter, contains: list?.filterContains?.includes(parameter) === true };
}
