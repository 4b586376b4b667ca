/**
 * list-total-counted: a list's total (a declared X-Total-Count or its kin, or the count its body's
 * envelope carries) counts at least the items the lifecycle sequence created and has not deleted.
 * Only that lower bound is judged: on a shared target other clients add and remove their own items
 * at any time, but not this run's, which exist from their create's answer to their delete. So a
 * total that says the page's length (the commonest fault: `articlesCount: articles.length`), 0, or a
 * count cached before the creates is caught, and a busy staging server is not blamed.
 */
import { declaredHeadersMeaning } from '../../src/core/openapi/header-meanings.js';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { SiblingPath } from '../../src/core/resources/model.js';
import { isJsonObject, type JsonValue } from '../generators/json-value.js';
import { answerJson } from './answer-json.js';
import { describeResponse } from './declared.js';
import { listedItems } from './resource-lifecycle.js';
import { byRequest, fail, PASS, type Check, type Exchange } from './types.js';

/** Where a total was read, and what it said. */
interface Total {
  readonly where: string;
  readonly at: { readonly header: string } | { readonly body: readonly string[] };
  readonly value: number;
}

export const listTotalCounted: Check<'list-total-counted'> = {
  id: 'list-total-counted',
  title: 'List totals count what is there',
  description:
    'A list’s total (a declared X-Total-Count or its kin, or the count in its envelope) is never less than the items the sequence created and has not deleted.',
  judge(exchange, { operation }) {
    const { request, response, facts } = exchange;
    const state = facts.state;
    if (facts.role !== 'lifecycle' || state?.step !== 'list' || response.status === undefined || !isSuccess(response.status)) return undefined;
    const holds = state.holds ?? 0;
    if (holds === 0) return undefined;
    const totals = totalsOf(exchange, operation, response.status, state.countAt);
    if (totals.length === 0) return undefined;
    const short = totals.find((total) => total.value < holds);
    if (short === undefined) return PASS;
    return fail({
      key: byRequest('the total counts every item created'),
      expected: `a total of at least ${holds} (${short.where})`,
      expectation: { kind: 'total-at-least', ...short.at, atLeast: String(holds) },
      actual: `${short.where} ${short.value}: ${describeResponse(response)}`,
      message: `a list's total (${short.where} ${short.value}) is less than the ${holds} item(s) the sequence created and has not deleted (${request.label}): ${facts.because ?? ''}`,
    });
  },
};

/** The totals the answer states where the document says it states them; a value that is not a count is left to the schema checks. */
function totalsOf(exchange: Exchange, operation: Operation, status: number, countAt: SiblingPath | undefined): Total[] {
  const totals: Total[] = [];
  for (const name of headersOf(operation, status)) {
    const text = exchange.response.headers[name];
    if (text !== undefined && /^\s*\d{1,15}\s*$/.test(text)) totals.push({ where: name, at: { header: name }, value: Number(text) });
  }
  if (countAt !== undefined) {
    const value = bodyValue(exchange, countAt);
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !mayBePageCount(exchange, countAt, value)) {
      totals.push({ where: countAt.join('.'), at: { body: [...countAt] }, value });
    }
  }
  return totals;
}

/** A bare `count` may be the page's own count (many APIs say so): equal to the items shown, it says nothing about the total. */
function mayBePageCount(exchange: Exchange, countAt: SiblingPath, value: number): boolean {
  const name = (countAt.at(-1) ?? '').toLowerCase().replace(/[-_]/g, '');
  return name === 'count' && listedItems(exchange)?.length === value;
}

function bodyValue(exchange: Exchange, path: SiblingPath): JsonValue | undefined {
  const parsed = answerJson(exchange.response);
  if (!parsed.ok) return undefined;
  let at: JsonValue | undefined = parsed.value;
  for (const name of path) at = isJsonObject(at) && Object.hasOwn(at, name) ? at[name] : undefined;
  return at;
}

/** The declared total headers, per operation and status: read once, not at every list answer. */
const declaredTotals = new WeakMap<Operation, Map<number, readonly string[]>>();

function headersOf(operation: Operation, status: number): readonly string[] {
  let byStatus = declaredTotals.get(operation);
  if (byStatus === undefined) {
    byStatus = new Map();
    declaredTotals.set(operation, byStatus);
  }
  let names = byStatus.get(status);
  if (names === undefined) {
    names = declaredHeadersMeaning(operation, status, 'total');
    byStatus.set(status, names);
  }
  return names;
}
