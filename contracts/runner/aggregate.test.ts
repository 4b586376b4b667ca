/** One finding per kind of problem, and never one for two operations (issue 19: "603 cases … valid Login request" merged several). */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { answer, exchange } from '../checks/exchanges.test-support.js';
import { newTally, record } from './aggregate.js';

describe('grouping problems', () => {
  it('keeps the same problem of two operations apart, and counts repeats of one together', async () => {
    const document = await loadDocument('spec/plant-store-public.yaml');
    const [first, second] = document.operations;
    if (first === undefined || second === undefined) throw new Error('the public Plant Store has two operations');
    const tally = newTally();
    const failing = answer(500, { error: 'boom' });
    const where = { property: 'valid', startPath: '0', plan: 0 };
    record(tally, [exchange({}, failing), exchange({}, failing)], { operation: first, expectUniqueIds: false }, where);
    record(tally, [exchange({}, failing)], { operation: second, expectUniqueIds: false }, { ...where, plan: 1 });
    const serverErrors = [...tally.groups.values()].filter((group) => group.check === 'no-server-errors');
    expect(serverErrors.map((group) => group.count).sort()).toEqual([1, 2]);
  });
});
