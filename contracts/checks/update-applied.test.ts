/** update-applied on hand-made lifecycle steps, and what a change leads a read to expect (runner/lifecycle/update.ts). */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { jsonObject } from '../generators/json-value.js';
import type { ReceivedResponse } from '../report.js';
import { expectedAfter } from '../runner/lifecycle/update.js';
import type { Exchange, ExpectedValue, StateFacts } from './index.js';
import { updateApplied } from './update-applied.js';

const context = { operation: {} as Operation, expectUniqueIds: false };

function answer(status: number, body: unknown): ReceivedResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), durationMs: 1 };
}

function step(step: StateFacts['step'], response: ReceivedResponse, expected?: readonly ExpectedValue[]): Exchange {
  return {
    request: { method: 'GET', url: 'http://h/pets/7', headers: {}, label: 'step 3: read pets 7' },
    response,
    facts: { role: 'lifecycle', kind: 'valid', target: 'body', state: { step, ...(expected === undefined ? {} : { expected }) }, because: 'id 7 was changed' },
  };
}

describe('update-applied', () => {
  it('passes a read that shows the values sent, and fails one that shows the old ones', () => {
    const expected = [{ property: 'name', value: 'Rex' }];
    expect(updateApplied.judge(step('read-held', answer(200, { id: 7, name: 'Rex', tag: 'dog' }), expected), context)?.outcome).toBe('pass');
    const verdict = updateApplied.judge(step('read-held', answer(200, { id: 7, name: 'Fido' }), expected), context);
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.outcome === 'fail' && verdict.message).toMatch(/name "Rex", shown as "Fido"/);
  });

  it('holds a removed property to being absent or null', () => {
    const removed = [{ property: 'tag' }];
    expect(updateApplied.judge(step('read-held', answer(200, { id: 7, name: 'Rex' }), removed), context)?.outcome).toBe('pass');
    expect(updateApplied.judge(step('read-held', answer(200, { id: 7, tag: null }), removed), context)?.outcome).toBe('pass');
    expect(updateApplied.judge(step('read-held', answer(200, { id: 7, tag: 'dog' }), removed), context)?.outcome).toBe('fail');
  });

  it('fails a refused valid update or replace; leaves 5xx, reads with nothing expected and other steps alone', () => {
    expect(updateApplied.judge(step('update', answer(400, { code: 400, message: 'no' })), context)?.outcome).toBe('fail');
    expect(updateApplied.judge(step('replace', answer(200, {})), context)?.outcome).toBe('pass');
    expect(updateApplied.judge(step('update', answer(500, {})), context)).toBeUndefined();
    expect(updateApplied.judge(step('read-held', answer(200, { name: 'Fido' })), context)).toBeUndefined();
    expect(updateApplied.judge(step('list', answer(200, [])), context)).toBeUndefined();
  });
});

describe('what a read must show after a change', () => {
  const settable = new Set(['name', 'tag', 'owner']);
  const before = [{ property: 'name', value: 'Rex' }];

  it('a replace expects what it sent, and forgets what earlier changes set', () => {
    expect(expectedAfter('replace', undefined, before, jsonObject([['tag', 'dog']]), settable)).toEqual([{ property: 'tag', value: 'dog' }]);
  });

  it('an update keeps earlier values it does not touch; properties the read does not show are not expected', () => {
    const body = jsonObject([
      ['tag', 'dog'],
      ['createdAt', '2026-01-01T00:00:00Z'],
    ]);
    expect(expectedAfter('update', 'merge', before, body, settable)).toEqual([...before, { property: 'tag', value: 'dog' }]);
  });

  it('a merge patch null removes; an object merges, so nothing is predicted for it', () => {
    const body = jsonObject([
      ['name', null],
      ['owner', jsonObject([['name', 'Ann']])],
    ]);
    expect(expectedAfter('update', 'merge-patch', before, body, settable)).toEqual([{ property: 'name' }]);
    expect(expectedAfter('update', 'merge', before, body, settable)).toEqual([]);
  });
});
