/**
 * list-filter-honoured: a list asked with a filter that names a property (`?tags=a&tags=b`) shows
 * only items whose property has one of the values (or, a contains filter `?tag=a` over tagList,
 * whose array holds one), and, where the page is not full, every item
 * the sequence holds that matches (runner/lifecycle/filters.ts sends it).
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { isJsonObject, toJsonText } from '../generators/json-value.js';
import { describeResponse } from './declared.js';
import { itemsMarked, listedItems } from './resource-lifecycle.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const listFilterHonoured: Check<'list-filter-honoured'> = {
  id: 'list-filter-honoured',
  title: 'List filters are honoured',
  description: 'A list filtered by a property shows only items with one of the values asked for, and every created item that has one.',
  judge(exchange) {
    const { request, response, facts } = exchange;
    const filter = facts.state?.filter;
    if (facts.role !== 'lifecycle' || facts.state?.step !== 'list-filtered' || filter === undefined) return undefined;
    if (response.status === undefined || !isSuccess(response.status)) return undefined;
    const items = listedItems(exchange);
    if (items === undefined) return undefined;
    const wanted = new Set(filter.values.map((value) => toJsonText(value)));
    const stray = items.filter((item) => {
      const value = isJsonObject(item) ? item[filter.property] : undefined;
      if (filter.contains === true) return !Array.isArray(value) || !value.some((inner) => wanted.has(toJsonText(inner)));
      return value === undefined || !wanted.has(toJsonText(value));
    });
    const limit = facts.state?.limit ?? facts.state?.page;
    const complete = limit === undefined || BigInt(items.length) < limit;
    const missing = complete ? filter.matching.filter((mark) => itemsMarked(items, mark).length === 0) : [];
    if (stray.length === 0 && missing.length === 0) return PASS;
    const asked = `${filter.property} ${filter.contains === true ? 'containing ' : ''}${[...wanted].join(' or ')}`;
    const problems = [
      ...(stray.length === 0 ? [] : [`${stray.length} listed item(s) without ${asked} (first: ${toJsonText(stray[0] ?? null)})`]),
      ...(missing.length === 0 ? [] : [`not listed though they match: ${missing.map((mark) => `${mark.property} ${mark.text}`).join(', ')}`]),
    ];
    return fail({
      key: byRequest(stray.length > 0 ? 'only matching items listed' : 'every matching item listed'),
      expected: `only and every item with ${asked}`,
      expectation: { kind: 'status-class', classes: [2] },
      actual: describeResponse(response),
      message: `a list filtered by ${filter.parameter} ${problems.join('; ')} (${request.label}): ${facts.because ?? ''}`,
    });
  },
};
