/**
 * update-applied: a lifecycle sequence's update (PATCH) or replace (PUT) of an item it holds, with
 * a valid change, is accepted, and every later read of the item shows the values it sent (where the
 * item's schema has them; runner/lifecycle/update.ts says which values a change settles).
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import { unwrapValue } from '../../src/core/schema/envelope.js';
import { isJsonObject, jsonEquals, toJsonText, type JsonValue } from '../generators/json-value.js';
import { answerJson } from './answer-json.js';
import { describeResponse } from './declared.js';
import { byRequest, fail, PASS, type Check, type ExpectedValue } from './types.js';

/** The expected values the answer's item does not show, each in words. */
export function unapplied(item: Readonly<Record<string, JsonValue>>, expected: readonly ExpectedValue[]): string[] {
  return expected.flatMap((want) => {
    const shown = Object.prototype.hasOwnProperty.call(item, want.property) ? item[want.property] : undefined;
    if (want.value === undefined) {
      // Removed by a merge patch: absent, or null, is what a read may show.
      return shown === undefined || shown === null ? [] : [`${want.property} removed, shown as ${toJsonText(shown)}`];
    }
    if (shown !== undefined && jsonEquals(shown, want.value)) return [];
    return [`${want.property} ${toJsonText(want.value)}, shown as ${shown === undefined ? '(absent)' : toJsonText(shown)}`];
  });
}

export const updateApplied: Check<'update-applied'> = {
  id: 'update-applied',
  title: 'Updates are applied',
  description: 'An update or replace of an item with a valid change is accepted, and a read afterwards shows the values it sent.',
  judge({ request, response, facts }) {
    const step = facts.state?.step;
    if (facts.role !== 'lifecycle') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (step === 'update' || step === 'replace') {
      if (isSuccess(status)) return PASS;
      return fail({
        key: byRequest(`a valid ${step} accepted`),
        expected: `a success (a valid ${step} of an item the target holds: ${facts.because ?? ''})`,
        expectation: { kind: 'status-class', classes: [2] },
        actual: describeResponse(response),
        message: `a valid ${step} of an item the target accepted was refused (${request.label}): ${facts.because ?? ''}`,
      });
    }
    const expected = facts.state?.expected;
    if (step !== 'read-held' || expected === undefined || expected.length === 0 || !isSuccess(status)) return undefined;
    const read = answerJson(response);
    if (!read.ok) return undefined; // not JSON: response-schema-conformance reports it
    // The item inside its envelope ({"article": {...}}), read as serve reads it (core/schema/envelope.ts).
    const item = (facts.state?.envelope === undefined ? read.value : unwrapValue(read.value, facts.state.envelope)) as JsonValue;
    if (!isJsonObject(item)) return undefined;
    const missing = unapplied(item, expected);
    if (missing.length === 0) return PASS;
    return fail({
      key: byRequest('the values sent shown'),
      expected: `the item with ${expected.map((e) => (e.value === undefined ? `no ${e.property}` : `${e.property} ${toJsonText(e.value)}`)).join(', ')}`,
      expectation: {
        kind: 'shows',
        values: expected.map((e) => (e.value === undefined ? { property: e.property } : { property: e.property, json: toJsonText(e.value) })),
      },
      actual: describeResponse(response),
      message: `a read after a successful update does not show what it sent: ${missing.join('; ')} (${request.label}): ${facts.because ?? ''}`,
    });
  },
};
