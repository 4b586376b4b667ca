/**
 * The small valid value of an object declared only by its alternatives (DigitalOcean's autoscale
 * pool `config`: `type: object`, oneOf a static or a dynamic config): the first alternative's, which
 * the schema's own check accepts; `{}` fitted neither, and a stored pool made up so broke its schema.
 */
import { describe, expect, it } from 'vitest';
import { compileSchemaCheck } from '../../src/core/prism/adapter.js';
import { minimalValue } from '../../src/core/schema/value.js';

const config = {
  type: 'object',
  oneOf: [
    { type: 'object', required: ['target_number_instances'], properties: { target_number_instances: { type: 'integer', minimum: 1 } } },
    {
      type: 'object',
      required: ['min_instances', 'max_instances'],
      properties: { min_instances: { type: 'integer', minimum: 1 }, max_instances: { type: 'integer', minimum: 1 } },
    },
  ],
};

describe('the small value of an object of alternatives', () => {
  it('is its first alternative’s, valid by the whole schema', () => {
    const value = minimalValue(config);
    expect(value).toEqual({ target_number_instances: 1 });
    expect(compileSchemaCheck(config, undefined)(value)).toBeUndefined();
  });

  it('leaves an object with properties of its own as it was', () => {
    const own = { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, anyOf: [{ required: ['name'] }] };
    expect(minimalValue(own)).toEqual({ name: 'text' });
  });
});
