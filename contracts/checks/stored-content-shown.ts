/**
 * stored-content-shown: what a lifecycle sequence stored is what the target shows. A read of an
 * item it holds shows every value its create sent (where the read's answer schema shows the
 * property, and no change since set it: update-applied judges those) and its own id, not another
 * item's; a list shows each held item with every value its create and changes sent. Judged by what
 * was sent, not by a marker alone: a list that mangles a name, a create that drops an optional
 * property, a read that answers another item are each seen here.
 */
import { isSuccess, declaredResponse } from '../../src/core/openapi/operation.js';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { objectShape } from '../../src/core/schema/properties.js';
import { unwrapValue, wrappedItem } from '../../src/core/schema/envelope.js';
import { typeOf } from '../../src/core/schema/types.js';
import { jsonSchemaOf } from '../../src/core/resources/responses.js';
import { isJsonObject, parseJsonExact, toJsonText, type JsonValue } from '../generators/json-value.js';
import { describeResponse } from './declared.js';
import { itemsMarked, listedItems } from './resource-lifecycle.js';
import { byRequest, fail, PASS, type Check, type ExpectedValue } from './types.js';
import { unapplied } from './update-applied.js';

export const storedContentShown: Check<'stored-content-shown'> = {
  id: 'stored-content-shown',
  title: 'Stored items show what was sent',
  description: 'A read or list of an item a sequence created shows every value it sent that the answer schema shows, and the item its id names.',
  judge(exchange, { operation }) {
    const { request, response, facts } = exchange;
    const state = facts.state;
    if (facts.role !== 'lifecycle' || response.status === undefined || !isSuccess(response.status)) return undefined;
    if (state?.step === 'read-held' && state.content !== undefined) {
      let item: JsonValue;
      try {
        item = parseJsonExact(response.body);
      } catch {
        return undefined; // not JSON: response-schema-conformance reports it
      }
      // The item inside its envelope, and its schema inside the answer's (core/schema/envelope.ts).
      const schema = answerItemSchema(operation, response.status, 'item');
      if (state.envelope !== undefined) item = unwrapValue(item, state.envelope) as JsonValue;
      if (!isJsonObject(item)) return undefined;
      const content = shownBy(state.content, wrappedItem(schema, state.envelope) ?? schema);
      const missing = unapplied(item, content);
      if (missing.length === 0) return PASS;
      return fail({
        key: byRequest('the stored values shown by a read'),
        expected: `the item with ${content.map(describe).join(', ')}`,
        expectation: { kind: 'shows', values: content.map(asShown) },
        actual: describeResponse(response),
        message: `a read of an item this sequence created does not show what was sent: ${missing.join('; ')} (${request.label}): ${facts.because ?? ''}`,
      });
    }
    if (state?.step === 'list' && state.shown !== undefined) {
      const items = listedItems(exchange);
      if (items === undefined) return undefined;
      const schema = answerItemSchema(operation, response.status, 'list');
      const problems: string[] = [];
      for (const { mark, values } of state.shown) {
        const matches = itemsMarked(items, mark);
        if (matches.length === 0) continue; // not listed at all: created-item-listed judges it
        const wanted = shownBy(values, schema);
        const each = matches.map((item) => (isJsonObject(item) ? unapplied(item, wanted) : ['not an object']));
        if (!each.some((missing) => missing.length === 0)) problems.push(...(each[0] ?? []));
      }
      if (problems.length === 0) return PASS;
      return fail({
        key: byRequest('the stored values shown by a list'),
        expected: 'every held item listed with the values sent',
        expectation: { kind: 'status-class', classes: [2] },
        actual: describeResponse(response),
        message: `a list shows an item this sequence created otherwise than it was sent: ${problems.slice(0, 3).join('; ')} (${request.label}): ${facts.because ?? ''}`,
      });
    }
    return undefined;
  },
};

function describe(value: ExpectedValue): string {
  return value.value === undefined ? `no ${value.property}` : `${value.property} ${toJsonText(value.value)}`;
}

function asShown(value: ExpectedValue): { property: string; json?: string } {
  return value.value === undefined ? { property: value.property } : { property: value.property, json: toJsonText(value.value) };
}

/** The expected values whose property the schema shows (all of them where the schema names none). */
function shownBy(values: readonly ExpectedValue[], schema: unknown): ExpectedValue[] {
  const properties = objectShape(schema).properties;
  if (properties.size === 0) return [...values];
  return values.filter((value) => properties.has(value.property));
}

/**
 * The schema of one item in the success answer's JSON (what verify reads): the answer's own (a read)
 * or its array's items, bare or in an envelope's one array property (a list).
 */
function answerItemSchema(operation: Operation, status: number, kind: 'item' | 'list'): unknown {
  const schema = jsonSchemaOf(declaredResponse(operation, status));
  if (kind === 'item') return schema;
  if (typeOf(schema) === 'array') return (schema as { items?: unknown }).items;
  const arrays = [...objectShape(schema).properties.values()].filter((property) => typeOf(property) === 'array');
  return arrays.length === 1 ? (arrays[0] as { items?: unknown }).items : undefined;
}
