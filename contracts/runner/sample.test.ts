/** The order cases are sent in (sample.ts): the plans' own, but a delete that takes a create's items goes beside that create. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/core/resources/model.js';
import type { Plan } from './plan.js';
import { defineProperty, type Property } from './property.js';
import { answer, createPlantContext, exchange } from '../checks/exchanges.test-support.js';
import { newTally } from './aggregate.js';
import type { CaseSource } from './case-source.js';
import { firstSliceSize, nextSliceSize, planWork, sampleInto, SLICE_MS, strandsOf } from './sample.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';

const plants = { name: 'plants', operations: { create: { method: 'post', path: '/plants' } } } as unknown as Resource;

function plan(method: string, path: string, takes?: Resource): Plan {
  return { operation: { method, path }, ...(takes === undefined ? {} : { owning: { around: async () => [], takes } }) } as unknown as Plan;
}

describe('strandsOf', () => {
  it('keeps every plan alone, in order, where no delete takes items', () => {
    expect(strandsOf([plan('get', '/pets'), plan('post', '/pets'), plan('get', '/pets/{id}')])).toEqual([[0], [1], [2]]);
  });

  it('puts a delete that takes items beside its resource’s create, wherever the document lists it', () => {
    const list = plan('get', '/plants');
    const create = plan('post', '/plants');
    const remove = plan('delete', '/plants/{id}', plants);
    expect(strandsOf([list, create, remove])).toEqual([[0], [1, 2]]);
    expect(strandsOf([remove, list, create])).toEqual([[0, 2], [1]]);
  });

  it('leaves a delete alone where its resource’s create is not planned', () => {
    expect(strandsOf([plan('get', '/plants'), plan('delete', '/plants/{id}', plants)])).toEqual([[0], [1]]);
  });
});

describe('planWork: runs drawn a slice at a time', () => {
  /** A plan of one property whose runs record the value they were drawn with; `costMs` is what drawing one run costs on the clock. */
  function recordingPlan(runs: number, requestsPerRun: number, costMs: (index: number) => number) {
    const seen: unknown[] = [];
    const slices: Array<{ from: number; count: number; ms: number }> = [];
    let now = 0;
    const property = defineProperty('p', fc.tuple(fc.integer(), fc.string()), runs, requestsPerRun, async (value) => {
      seen.push(value);
      return [];
    });
    const timed: Property = {
      ...property,
      cases(seed, from, count) {
        const before = now;
        for (let i = from; i < from + count; i++) now += costMs(i);
        slices.push({ from, count, ms: now - before });
        return property.cases(seed, from, count);
      },
    };
    const plan = { operation: { method: 'post', path: '/x' }, properties: [timed] } as unknown as Plan;
    return { plan, seen, slices, clock: () => now };
  }

  it('draws the very values of one uninterrupted sample, however the slices fall', async () => {
    const { plan, seen, slices, clock } = recordingPlan(300, 1, (i) => (i % 7 === 0 ? 3 : 0.2));
    for (const item of planWork(plan, 0, 8, clock)) await item.run({} as RunEnv);
    expect(new Set(slices.map((s) => s.count)).size).toBeGreaterThan(2);
    expect(seen).toEqual(fc.sample(fc.tuple(fc.integer(), fc.string()), { seed: 8, numRuns: 300 }));
  });

  it('keeps a slow property’s slices to about SLICE_MS each, after the first', () => {
    // A model sequence: 2.5 ms a run, 8 requests a run (the 25 of a default run were one slice of 60–120 ms).
    const { plan, slices, clock } = recordingPlan(25, 8, () => 2.5);
    const items = [...planWork(plan, 0, 8, clock)];
    expect(items.map((item) => item.index)).toEqual([...Array(25).keys()]);
    expect(slices[0]).toMatchObject({ from: 0, count: 4 });
    for (const slice of slices.slice(1)) expect(slice.ms).toBeLessThanOrEqual(Math.max(SLICE_MS, 2.5));
  });

  it('doubles a fast property’s slices, up to 512', () => {
    const { plan, slices, clock } = recordingPlan(3000, 1, () => 0.001);
    [...planWork(plan, 0, 8, clock)];
    expect(slices.slice(0, 6).map((s) => s.count)).toEqual([32, 64, 128, 256, 512, 512]);
  });
});

describe('nextSliceSize', () => {
  it('sizes a slice to be drawn in about SLICE_MS, at most doubling', () => {
    expect(nextSliceSize(32, 64, 32)).toBe(2);
    expect(nextSliceSize(32, 2, 32)).toBe(64);
    expect(nextSliceSize(4, 100, 4)).toBe(1);
    expect(nextSliceSize(512, 1, 2000)).toBe(512);
  });

  it('never holds fewer than 1/32 of the runs before it, whose jumps it pays for first', () => {
    expect(nextSliceSize(10, 1000, 3200)).toBe(100);
  });

  it('starts with fewer runs where a run sends more requests', () => {
    expect(firstSliceSize(1)).toBe(32);
    expect(firstSliceSize(8)).toBe(4);
    expect(firstSliceSize(40)).toBe(1);
  });
});

describe('sampleInto: the case that stands for a finding', () => {
  it('is the first the seed sends, though later cases are answered first (one seed, one replay)', async () => {
    // CI once printed `--replay boundary:5` where every other run printed `valid:0`: on a loaded machine a later case came back first.
    const context = await createPlantContext();
    let started = 0;
    const refused = (name: string) =>
      defineProperty(name, fc.integer(), 10, 1, async () => {
        const delayMs = Math.max(0, 60 - 6 * started++);
        await new Promise((done) => setTimeout(done, delayMs));
        return [exchange({}, answer(500, { error: 'boom' }))];
      });
    const properties = [refused('valid'), refused('boundary')];
    const plan = { operation: context.operation, context, properties, key: (p: Property) => p.name } as unknown as Plan;
    const tally = newTally();
    const source = { validCases: () => fc.constant(undefined) } as unknown as CaseSource;
    const settings = { seed: 5, concurrency: 8 } as unknown as Settings;
    await sampleInto(tally, [plan], Promise.resolve([plan]), source, settings, () => ({}) as RunEnv);
    const group = [...tally.groups.values()].find((g) => g.check === 'no-server-errors');
    expect(group?.count).toBe(20);
    expect([group?.first.property, group?.first.startPath]).toEqual(['valid', '0']);
  });
});
