/**
 * list: a page of the collection in creation order, as the document's list answer lays it out (the
 * array itself, or an object holding it with a total and a next cursor where declared). Paging and
 * filters are the query parameters inference found (resource.list); with no limit given, the
 * parameter's declared default, else every item up to LIST_CAP.
 */
import type { IHttpOperation } from '@stoplight/types';
import { declares, failure, statusOf } from '../../core/errors.js';
import { declaredStatuses } from '../../core/openapi/operation.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import { narrow, parseInt64 } from '../../core/json/int64.js';
import type { Item, ItemPage, ItemPageRequest } from '../../store/item-store.js';
import { isCursor } from '../../store/memory-store.js';
import type { HandlerContext } from '../../http/binding.js';
import { answer, guarded, refuse, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import type { Schema } from '../../core/schema/normalise.js';
import { arrayItems, objectShape } from '../../core/schema/properties.js';
import { filterOn, limitDefault as declaredLimitDefault } from '../../core/resources/list-parameters.js';
import { typeOf } from '../../core/schema/types.js';
import { compileEnvelopeWriter, type PageFacts } from './list-envelope.js';
import { compileItemWriter, jsonText, listShape, rememberingWriter } from './shape.js';
import { compileAnswerHeaders, pageUrl, type AnswerHeaders, type PageLinks } from './answer-headers.js';

/** Items a list answers when the request gives no limit and the document declares no default. */
export const LIST_CAP = 1000;

type Query = Readonly<Record<string, string | string[]>>;

export function compileList({ operation, resource, collection, echoId }: RoleParts): RoleHandler {
  const parameters = resource.list ?? { filters: [] };
  const success = successAnswer(operation, [200]);
  const layout = listShape(success.schema);
  const writeItem = compileItemWriter(layout.itemSchema, { echo: echoId ? resource.identifier.property : undefined });
  const writeResident = rememberingWriter(writeItem);
  const limitDefault = declaredLimitDefault(operation, parameters);
  const pageBase = parameters.page === undefined ? 1 : pageStart(queryParameter(operation, parameters.page));
  const itemProperties = objectShape(resource.itemSchema).properties;
  const filters = parameters.filters.map((name) => {
    const { property, contains } = filterOn(parameters, name);
    // A contains filter reads each value as one of the array's items.
    const read = filterValue(contains ? arrayItems(itemProperties.get(property)) : itemProperties.get(property));
    return { name, property, contains, read, split: splitsOnCommas(operation, name) };
  });
  const statuses = declaredStatuses(operation);
  const refusesCursors = declares(statuses, statusOf(failure('badRequest', ''), statuses));
  const arrayProperty = layout.arrayProperty;
  const writeEnvelope = arrayProperty === undefined ? undefined : compileEnvelopeWriter({ ...layout, arrayProperty });
  const declaredHeaders = compileAnswerHeaders(operation, success.status);

  /** Where this page starts, as the envelope's offset and page say it: the given values (none given: the first page). */
  function position(query: Query, limit: number): { readonly offset: number; readonly page: number } {
    const offsetText = parameters.offset === undefined ? undefined : first(query[parameters.offset]);
    const pageText = parameters.page === undefined ? undefined : first(query[parameters.page]);
    const page = pageText === undefined ? pageBase : (count(pageText) ?? pageBase);
    const offset = (offsetText === undefined ? 0 : (count(offsetText) ?? 0)) + Math.max(0, page - pageBase) * limit;
    return { offset: Math.min(offset, Number.MAX_SAFE_INTEGER), page };
  }

  /** The page the query asks for, or a refusal naming the parameter that cannot be read. */
  function pageRequest(query: Query): ListRequest | string {
    const limitText = parameters.limit === undefined ? undefined : first(query[parameters.limit]);
    // A negative limit that the document's schema lets through asks for no more than none: an empty page.
    const asked = limitText === undefined ? (limitDefault ?? LIST_CAP) : /^-[0-9]+$/.test(limitText) ? 0 : count(limitText);
    if (asked === undefined) return `${parameters.limit} must be a whole number, not ${JSON.stringify(limitText)}`;
    // A page no longer than the answer's schema allows (the OAI petstore's Pets: maxItems 100); the next page holds the rest.
    const limit = layout.maxItems === undefined ? asked : Math.min(asked, layout.maxItems);
    let skip = 0;
    const offsetText = parameters.offset === undefined ? undefined : first(query[parameters.offset]);
    // A negative offset that the document's schema lets through (RealWorld's has no minimum) starts at the first item.
    if (offsetText !== undefined && !/^-[0-9]+$/.test(offsetText)) {
      const offset = count(offsetText);
      if (offset === undefined) return `${parameters.offset} must be a whole number, not ${JSON.stringify(offsetText)}`;
      skip = offset;
    }
    const pageText = parameters.page === undefined ? undefined : first(query[parameters.page]);
    if (pageText !== undefined) {
      const page = count(pageText);
      // A page before the first that the document's schema lets through (page=0 where pages start at 1) holds nothing, as one past the last.
      if (/^-[0-9]+$/.test(pageText) || (page !== undefined && page < pageBase)) skip = Number.MAX_SAFE_INTEGER;
      else if (page === undefined) return `${parameters.page} must be a whole number from ${pageBase}, not ${JSON.stringify(pageText)}`;
      else skip += (page - pageBase) * limit;
    }
    // An empty cursor (a form's blank field) is no cursor: the first page.
    const cursorText = parameters.cursor === undefined ? undefined : first(query[parameters.cursor]);
    let cursor = cursorText === '' ? undefined : cursorText;
    if (cursor !== undefined && !isCursor(cursor)) {
      // One this list never gave: refused where the list declares a status for it, else past the end (an empty last page).
      if (refusesCursors) return `${parameters.cursor} must be a cursor this list gave (its next), not ${JSON.stringify(cursor)}`;
      cursor = undefined;
      skip = Number.MAX_SAFE_INTEGER;
    }
    let where: Record<string, JsonValue> | undefined;
    let anyOf: Record<string, JsonValue[]> | undefined;
    let contains: Record<string, JsonValue[]> | undefined;
    for (const { name, property, contains: inArray, read, split } of filters) {
      const texts = all(query[name], split);
      if (texts.length === 0) continue;
      const values: JsonValue[] = [];
      for (const text of texts) {
        const value = read(text);
        if (value === undefined)
          return `${name} must be a ${typeOf(itemProperties.get(property)) ?? 'value'} like the items' ${property}, not ${JSON.stringify(text)}`;
        values.push(value);
      }
      if (inArray) (contains ??= Object.create(null) as Record<string, JsonValue[]>)[property] = values;
      else if (values.length === 1) (where ??= Object.create(null) as Record<string, JsonValue>)[property] = values[0] as JsonValue;
      else (anyOf ??= Object.create(null) as Record<string, JsonValue[]>)[property] = values;
    }
    return {
      limit,
      skip,
      ...(cursor !== undefined ? { cursor } : {}),
      ...(where ? { where } : {}),
      ...(anyOf ? { anyOf } : {}),
      ...(contains ? { contains } : {}),
    };
  }

  return (context: HandlerContext) => {
    const request = pageRequest(context.request.query);
    if (typeof request === 'string') return Promise.resolve(refuse(failure('badRequest', request)));
    return guarded(async () => {
      const store = await collection(context);
      const page = request.anyOf === undefined && request.contains === undefined ? await store.list(request) : await scan(store, request);
      let items = '';
      const write = page.resident === true ? writeResident : writeItem;
      for (const item of page.items) items += (items === '' ? '' : ',') + write(item.fields);
      const array = `[${items}]`;
      const cursorHeaders =
        page.next !== undefined && parameters.cursor !== undefined ? { ...success.headers, 'plantstore-next-cursor': page.next } : success.headers;
      if (writeEnvelope === undefined && declaredHeaders === undefined) return answer(success.status, cursorHeaders, array);
      let counted: Promise<number> | undefined;
      const facts: PageFacts = {
        shown: page.items.length,
        limit: request.limit,
        ...position(context.request.query, request.limit),
        next: page.next,
        // Counted once, for the envelope and the headers alike.
        total: () =>
          (counted ??= request.where !== undefined || request.anyOf !== undefined || request.contains !== undefined ? matching(store, request) : store.count()),
      };
      const headers = declaredHeaders === undefined ? cursorHeaders : { ...cursorHeaders, ...(await pageHeaders(declaredHeaders, facts, context)) };
      return answer(success.status, headers, writeEnvelope === undefined ? array : await writeEnvelope(array, facts));
    });
  };

  /** The declared headers of a page: its total, and its other pages where the list pages. */
  function pageHeaders(headers: AnswerHeaders, facts: PageFacts, context: HandlerContext): Promise<Readonly<Record<string, string>>> {
    const host = context.request.headers.host;
    const at = (name: string, value: number | string | undefined) =>
      pageUrl(host, context.request.path, context.queryText, name, value === undefined ? undefined : String(value));
    const pages = async (): Promise<PageLinks> => {
      if (parameters.cursor !== undefined) {
        return { first: at(parameters.cursor, undefined), ...(facts.next === undefined ? {} : { next: at(parameters.cursor, facts.next) }) };
      }
      const limit = facts.limit;
      if (limit <= 0 || (parameters.offset === undefined && parameters.page === undefined)) return {};
      const total = await facts.total();
      const more = facts.offset + limit < total;
      if (parameters.offset !== undefined) {
        const last = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
        return {
          first: at(parameters.offset, 0),
          ...(facts.offset > 0 ? { prev: at(parameters.offset, Math.max(0, facts.offset - limit)) } : {}),
          ...(more ? { next: at(parameters.offset, facts.offset + limit) } : {}),
          last: at(parameters.offset, last),
        };
      }
      const name = parameters.page as string;
      return {
        first: at(name, pageBase),
        ...(facts.page > pageBase ? { prev: at(name, facts.page - 1) } : {}),
        ...(more ? { next: at(name, facts.page + 1) } : {}),
        last: at(name, pageBase + Math.max(0, Math.ceil(total / limit) - 1)),
      };
    };
    return headers({ total: facts.total, pages });
  }
}

/** A list request with filters the store cannot express: a property that may hold any of several values. */
interface ListRequest extends ItemPageRequest {
  readonly anyOf?: Readonly<Record<string, readonly JsonValue[]>>;
  /** Array properties that must contain one of the values (filterContains: `?tag=x` over tagList). */
  readonly contains?: Readonly<Record<string, readonly JsonValue[]>>;
}

type Store = Awaited<ReturnType<RoleParts['collection']>>;

/**
 * A page of the items that also match the any-of filters (`?tags=dog&tags=cat`): the store's
 * equality filters narrow the scan, the rest is kept here, reading the collection in chunks.
 * Offset and limit apply; a next cursor is not given.
 */
async function scan(store: Store, request: ListRequest): Promise<ItemPage> {
  const texts = (filters: Readonly<Record<string, readonly JsonValue[]>> | undefined) =>
    Object.entries(filters ?? {}).map(([property, values]) => [property, new Set(values.map(jsonText))] as const);
  const wanted = texts(request.anyOf);
  const held = texts(request.contains);
  const keep = (item: Item) =>
    wanted.every(([property, texts]) => Object.hasOwn(item.fields, property) && texts.has(jsonText(item.fields[property] as JsonValue))) &&
    held.every(([property, texts]) => {
      const array = Object.hasOwn(item.fields, property) ? item.fields[property] : undefined;
      return Array.isArray(array) && array.some((value) => texts.has(jsonText(value)));
    });
  let skip = request.skip ?? 0;
  const items: Item[] = [];
  let cursor = request.cursor;
  do {
    const chunk = await store.list({ limit: LIST_CAP, ...(request.where ? { where: request.where } : {}), ...(cursor !== undefined ? { cursor } : {}) });
    for (const item of chunk.items) {
      if (!keep(item)) continue;
      if (skip > 0) skip -= 1;
      else if (items.length < request.limit) items.push(item);
      // Full: the store's cursors mark its own pages, not an item inside one, so such a list has no next cursor.
      else return { items };
    }
    cursor = chunk.next;
  } while (cursor !== undefined);
  return { items };
}

/** How many items match a filtered list: the store counts only whole collections, so the matches are paged through. */
async function matching(store: Store, request: ListRequest): Promise<number> {
  const everything: ListRequest = { ...request, limit: Number.MAX_SAFE_INTEGER, skip: 0 };
  if (request.anyOf !== undefined || request.contains !== undefined) return (await scan(store, everything)).items.length;
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await store.list({ limit: LIST_CAP, ...(request.where ? { where: request.where } : {}), ...(cursor !== undefined ? { cursor } : {}) });
    total += page.items.length;
    cursor = page.next;
  } while (cursor !== undefined);
  return total;
}

/** Every value a query parameter was given: repeated (`?tags=a&tags=b`), or comma-separated when it is declared `explode: false`. */
function all(value: string | string[] | undefined, split: boolean): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return split ? values.flatMap((text) => text.split(',')) : values;
}

function splitsOnCommas(operation: IHttpOperation, name: string): boolean {
  const parameter = operation.request?.query?.find((candidate) => candidate.name === name);
  return parameter?.explode === false;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A non-negative whole number. Beyond JS's exact range it reads as the largest exact one: the
 * schema let it through, and a page or offset that far is past every item, a limit that large no limit.
 */
function count(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  return text.length > 15 ? Math.min(Number(text), Number.MAX_SAFE_INTEGER) : Number(text);
}

function queryParameter(operation: IHttpOperation, name: string): Schema | undefined {
  return operation.request?.query?.find((parameter) => parameter.name === name)?.schema as Schema | undefined;
}

/** Pages count from 0 when the parameter's minimum says so, else from 1. */
function pageStart(schema: Schema | undefined): number {
  return (schema as { readonly minimum?: unknown } | undefined)?.minimum === 0 ? 0 : 1;
}

/**
 * A filter's query text as the value stored items hold, typed by the property's schema, so that
 * `?id=9007199254740993` matches exactly (a bigint) and `?tag=aroid` matches the text.
 */
function filterValue(schema: Schema | undefined): (text: string) => JsonValue | undefined {
  switch (typeOf(schema)) {
    case 'integer':
      return (text) => {
        const value = parseInt64(text);
        if (value === undefined) return undefined;
        return narrow(value);
      };
    case 'number':
      return (text) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined);
    case 'boolean':
      return (text) => (text === 'true' ? true : text === 'false' ? false : undefined);
    default:
      return (text) => text;
  }
}
