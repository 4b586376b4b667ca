/** The order cases are sent in (sample.ts): the plans' own, but a delete that takes a create's items goes beside that create. */
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/core/resources/model.js';
import type { Plan } from './plan.js';
import { strandsOf } from './sample.js';

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
