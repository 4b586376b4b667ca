/**
 * The checks of a resource's life, each judging one step of a lifecycle sequence (runner/lifecycle.ts)
 * against what the resource model held when it was sent: what was created is there (read, listed),
 * what was deleted is gone (read, listed) and its id free again, and a list never exceeds its limit.
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { isJsonObject, toJsonText, type JsonValue } from '../generators/json-value.js';
import { answerJson } from './answer-json.js';
import { describeResponse } from './declared.js';
import type { Expectation } from '../report.js';
import { byRequest, fail, PASS, warn, type Check, type Exchange, type ItemMark, type StateFacts } from './types.js';
import { unapplied } from './update-applied.js';

/** Three checks read each list answer: it is parsed once. */
const parsedLists = new WeakMap<Exchange['response'], JsonValue[] | undefined>();

export function listedItems(exchange: Exchange): JsonValue[] | undefined {
  if (parsedLists.has(exchange.response)) return parsedLists.get(exchange.response);
  const items = readItems(exchange);
  parsedLists.set(exchange.response, items);
  return items;
}

/** The items of a list answer: the array itself, or the one array property of an envelope ({ items: [...] }). */
function readItems(exchange: Exchange): JsonValue[] | undefined {
  const parsed = answerJson(exchange.response);
  if (!parsed.ok) return undefined; // not JSON: response-schema-conformance reports it
  const body = parsed.value;
  if (Array.isArray(body)) return body;
  if (!isJsonObject(body)) return undefined;
  const arrays = Object.values(body).filter((value): value is JsonValue[] => Array.isArray(value));
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Per list answer and property, the JSON texts its items show there: each item is written once, not once per mark. */
const shownTexts = new WeakMap<readonly JsonValue[], Map<string, Set<string>>>();

/** The listed items that are this mark's item: by its exact text, or by its token where a marker has one (the rest of the text is stored-content-shown's to judge). */
export function itemsMarked(items: readonly JsonValue[], mark: ItemMark): JsonValue[] {
  return items.filter((item) => {
    const value = isJsonObject(item) ? item[mark.property] : undefined;
    if (value === undefined) return false;
    if (mark.token !== undefined && typeof value === 'string' && value.includes(mark.token)) return true;
    return (typeof value === 'string' ? JSON.stringify(value) : toJsonText(value)) === mark.text;
  });
}

function shows(items: readonly JsonValue[], mark: ItemMark): boolean {
  if (mark.token !== undefined) return itemsMarked(items, mark).length > 0;
  let byProperty = shownTexts.get(items);
  if (byProperty === undefined) {
    byProperty = new Map();
    shownTexts.set(items, byProperty);
  }
  let texts = byProperty.get(mark.property);
  if (texts === undefined) {
    texts = new Set();
    for (const item of items) {
      const value = isJsonObject(item) ? item[mark.property] : undefined;
      // JSON.stringify writes a string as toJsonText does, and much faster.
      if (value !== undefined) texts.add(typeof value === 'string' ? JSON.stringify(value) : toJsonText(value));
    }
    byProperty.set(mark.property, texts);
  }
  return texts.has(mark.text);
}

function describeMark(mark: ItemMark): string {
  return `${mark.property} ${mark.text}`;
}

function succeeded(exchange: Exchange): boolean {
  const status = exchange.response.status;
  return status !== undefined && isSuccess(status);
}

export const ensureResourceAvailability: Check<'ensure-resource-availability'> = {
  id: 'ensure-resource-availability',
  title: 'Created items are there',
  description: 'An item the target accepted can be read and deleted afterwards (no 404 for what was just created).',
  judge({ request, response, facts }) {
    const step = facts.state?.step;
    if (facts.role !== 'lifecycle' || (step !== 'read-held' && step !== 'delete')) return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isSuccess(status)) return PASS;
    const what = step === 'read-held' ? 'read' : 'deleted';
    return fail({
      key: byRequest(`the created item ${what}`),
      expected: `a success (the item was created: ${facts.because ?? ''})`,
      expectation: { kind: 'status-class', classes: [2] },
      actual: describeResponse(response),
      message: `an item the target accepted could not be ${what} (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

export const deletedItemGone: Check<'deleted-item-gone'> = {
  id: 'deleted-item-gone',
  title: 'Deleted items are gone',
  description:
    'After a successful delete, reading the item is refused (404), never answered with the item; an id of a deleted item given to another item is a warning.',
  judge({ request, response, facts }) {
    const state = facts.state;
    if (facts.role !== 'lifecycle' || state?.step !== 'read-deleted') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (!isSuccess(status)) return PASS;
    // The answer is another item under the deleted one's id: the target gave the id again (allowed by HTTP, a trap for clients that kept it).
    const other = otherItem(response, state.content);
    if (other.length > 0) {
      return warn({
        key: byRequest('the id of a deleted item not given to another item'),
        expected: 'a refusal (404): the item was deleted, and its id names no other item',
        expectation: { kind: 'status-class', classes: [4] },
        actual: describeResponse(response),
        message: `an id of a deleted item was given to another item: the read of it answers an item that does not have what the deleted one was sent with (${other.slice(0, 2).join('; ')}) (${request.label}): ${facts.because ?? ''}`,
      });
    }
    return fail({
      key: byRequest('the deleted item refused'),
      expected: 'a refusal (404): the item was deleted',
      expectation: { kind: 'status-class', classes: [4] },
      actual: describeResponse(response),
      message: `a deleted item can still be read (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

/** What the deleted item was sent with that this answer's item does not have (empty: the same item, or nothing to tell them apart by). */
function otherItem(response: Exchange['response'], content: StateFacts['content']): string[] {
  if (content === undefined || content.length === 0) return [];
  const parsed = answerJson(response);
  return parsed.ok && isJsonObject(parsed.value) ? unapplied(parsed.value, content) : [];
}

export const createdItemListed: Check<'created-item-listed'> = {
  id: 'created-item-listed',
  title: 'Created items are listed',
  description:
    'A complete list (fewer items than its page: the limit it sent or, where it sent none, the limit’s declared default, or 10 where the document declares a limit with no default) shows every item created and not deleted.',
  judge(exchange) {
    const { request, response, facts } = exchange;
    const state = facts.state;
    if (facts.role !== 'lifecycle' || state?.step !== 'list' || state.held === undefined || state.held.length === 0 || !succeeded(exchange)) return undefined;
    const items = listedItems(exchange);
    if (items === undefined) return undefined;
    // A full page may leave our items to later pages: only a list shorter than its limit (or its default page) is complete.
    const page = state.limit ?? state.page;
    if (page !== undefined && BigInt(items.length) >= page) return undefined;
    const missing = state.held.filter((mark) => !shows(items, mark));
    if (missing.length === 0) return PASS;
    return fail({
      key: byRequest('every created item listed'),
      expected: `a list that shows ${missing.map(describeMark).join(', ')}`,
      expectation: listExpectation('lists', missing, state.limit),
      actual: describeResponse(response),
      message: `a complete list (${items.length} items${state.limit === undefined ? '' : `, limit ${state.limit}`}) does not show an item created before it (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

export const deletedItemNotListed: Check<'deleted-item-not-listed'> = {
  id: 'deleted-item-not-listed',
  title: 'Deleted items are not listed',
  description: 'After a successful delete, no list answer shows the item.',
  judge(exchange) {
    const { request, response, facts } = exchange;
    const state = facts.state;
    if (facts.role !== 'lifecycle' || state?.step !== 'list' || state.deleted === undefined || state.deleted.length === 0 || !succeeded(exchange))
      return undefined;
    const items = listedItems(exchange);
    if (items === undefined) return undefined;
    const shown = state.deleted.filter((mark) => shows(items, mark));
    if (shown.length === 0) return PASS;
    // Listed under a deleted item's id, but without what it was sent with: another item was given the id.
    const others = shown.filter((mark) => {
      const values = mark.token === undefined ? state.gone?.find((g) => g.mark === mark)?.values : undefined;
      return values !== undefined && values.length > 0 && itemsMarked(items, mark).every((item) => !isJsonObject(item) || unapplied(item, values).length > 0);
    });
    if (others.length === shown.length) {
      return warn({
        key: byRequest('the id of a deleted item not given to another item'),
        expected: `a list without ${shown.map(describeMark).join(', ')} (deleted, its id given to no other item)`,
        expectation: listExpectation('does-not-list', shown, undefined),
        actual: describeResponse(response),
        message: `an id of a deleted item was given to another item: a list shows it on an item without what the deleted one was sent with (${request.label}): ${facts.because ?? ''}`,
      });
    }
    return fail({
      key: byRequest('no deleted item listed'),
      expected: `a list without ${shown.map(describeMark).join(', ')} (deleted)`,
      expectation: listExpectation('does-not-list', shown, undefined),
      actual: describeResponse(response),
      message: `a list shows an item that was deleted (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

export const listLimitRespected: Check<'list-limit-respected'> = {
  id: 'list-limit-respected',
  title: 'Lists keep to their limit',
  description: 'A list answer never has more items than the limit the request asked for.',
  judge(exchange, { limitParameter }) {
    const { request, response, facts } = exchange;
    const limit = facts.state?.limit ?? limitIn(request.url, limitParameter);
    if (limit === undefined || limit < 0n || !succeeded(exchange)) return undefined;
    // A lifecycle list is held to its limit once the sequence's own items exceed it: then its steps show the fault
    // on a fresh target too (shrinking keeps the creates). What the target held before, the lone list requests judge.
    if (facts.role === 'lifecycle' && BigInt(facts.state?.holds ?? 0) <= limit) return undefined;
    const items = listedItems(exchange);
    if (items === undefined) return undefined;
    if (BigInt(items.length) <= limit) return PASS;
    return fail({
      key: byRequest('at most limit items'),
      expected: `at most ${limit} items`,
      expectation: { kind: 'at-most-items', limit: String(limit) },
      actual: `${items.length} items: ${describeResponse(response)}`,
      message: `a list answer has ${items.length} items though the request asked for at most ${limit} (${request.label})`,
    });
  },
};

export const deletedIdReusable: Check<'deleted-id-reusable'> = {
  id: 'deleted-id-reusable',
  title: 'Deleted ids are free again',
  description: 'Where the client assigns ids, creating an item again with the id of a deleted one is accepted.',
  judge({ request, response, facts }) {
    if (facts.role !== 'lifecycle' || facts.state?.step !== 'recreate') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isSuccess(status)) return PASS;
    return fail({
      key: byRequest('the deleted id accepted again'),
      expected: 'accepted (the item with this id was deleted)',
      expectation: { kind: 'status-class', classes: [2] },
      actual: describeResponse(response),
      message: `an id whose item was deleted is still refused (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

/** What a regression test asserts of the list: these items shown (or not), by the property that tells them apart. */
function listExpectation(kind: 'lists' | 'does-not-list', marks: readonly ItemMark[], limit: bigint | undefined): Expectation {
  const property = marks[0]?.property ?? '';
  const json = marks.map((mark) => mark.text);
  return kind === 'does-not-list' ? { kind, property, json } : { kind, property, json, ...(limit === undefined ? {} : { limit: String(limit) }) };
}

/** The integer value of the limit parameter in a URL's query, exactly; undefined when absent or not an integer. */
export function limitIn(url: string, parameter: string | undefined): bigint | undefined {
  if (parameter === undefined) return undefined;
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const values = new URLSearchParams(query).getAll(parameter);
  if (values.length !== 1) return undefined;
  const value = values[0] as string;
  return /^-?\d{1,30}$/.test(value) ? BigInt(value) : undefined;
}
