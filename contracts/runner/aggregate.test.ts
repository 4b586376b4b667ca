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

describe('the occurrence that stands for a group', () => {
  it('is the case sent first in the seed’s order, not the one recorded first; a fixed probe gives way to any case', async () => {
    const document = await loadDocument('spec/plant-store-public.yaml');
    const [operation] = document.operations;
    if (operation === undefined) throw new Error('the public Plant Store has operations');
    const tally = newTally();
    const failing = answer(500, { error: 'boom' });
    const context = { operation, expectUniqueIds: false };
    record(tally, [exchange({}, failing)], context, { property: 'evidence', startPath: undefined, plan: 0 });
    record(tally, [exchange({}, failing)], context, { property: 'boundary', startPath: '5', plan: 0, order: 15 });
    record(tally, [exchange({}, failing)], context, { property: 'valid', startPath: '0', plan: 0, order: 0 });
    record(tally, [exchange({}, failing)], context, { property: 'valid', startPath: '3', plan: 0, order: 3 });
    record(tally, [exchange({}, failing)], context, { property: 'evidence', startPath: undefined, plan: 0 });
    const [group] = [...tally.groups.values()].filter((g) => g.check === 'no-server-errors');
    expect(group?.count).toBe(5);
    expect([group?.first.property, group?.first.startPath]).toEqual(['valid', '0']);
  });
});
