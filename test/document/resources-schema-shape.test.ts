/** What inference reads from schemas (src/core/resources/schema-shape.ts): identifier types and bounds, allOf, type matching, structure. */
import { describe, expect, it } from 'vitest';
import { fitsParameter, structureSignature } from '../../src/core/resources/schema-shape.js';
import { identifierType } from '../../src/core/schema/identifier.js';
import { objectShape } from '../../src/core/schema/properties.js';

describe('identifierType', () => {
  it("bounds an integer by its format (none: int64), narrowed by the author's minimum/maximum", () => {
    expect(identifierType({ type: 'integer', format: 'int32' })).toEqual({ kind: 'integer', minimum: -(2n ** 31n), maximum: 2n ** 31n - 1n });
    expect(identifierType({ type: 'integer' })).toEqual({ kind: 'integer', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n });
    expect(identifierType({ type: 'integer', format: 'int32', minimum: 1, maximum: 1e12 })).toEqual({ kind: 'integer', minimum: 1n, maximum: 2n ** 31n - 1n });
  });

  it('reads exclusive bounds both ways: 3.1 numbers and 3.0 booleans', () => {
    expect(identifierType({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toMatchObject({ minimum: 1n, maximum: 9n });
    expect(identifierType({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true })).toMatchObject({
      minimum: 1n,
      maximum: 9n,
    });
    expect(identifierType({ type: 'integer', minimum: 0.5, maximum: 9.5 })).toMatchObject({ minimum: 1n, maximum: 9n });
  });

  it("ignores the ±(2^53 − 1) prism gives every int64 schema, keeping the author's own bound", () => {
    const prism = { minimum: -9007199254740991, maximum: 9007199254740991, 'x-stoplight': { explicitProperties: ['type', 'format'] } };
    expect(identifierType({ type: 'integer', format: 'int64', ...prism })).toEqual({ kind: 'integer', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n });
    const authored = { ...prism, minimum: 1, 'x-stoplight': { explicitProperties: ['type', 'format', 'minimum'] } };
    expect(identifierType({ type: 'integer', format: 'int64', ...authored })).toEqual({ kind: 'integer', minimum: 1n, maximum: 2n ** 63n - 1n });
  });

  it('a uuid, any other string (and 3.1 type arrays with null)', () => {
    expect(identifierType({ type: 'string', format: 'uuid' })).toEqual({ kind: 'uuid' });
    expect(identifierType({ type: ['string', 'null'] })).toEqual({ kind: 'string' });
    expect(identifierType({ type: ['integer', 'null'], format: 'int32' })).toMatchObject({ kind: 'integer', maximum: 2n ** 31n - 1n });
  });
});

describe('fitsParameter and objectShape', () => {
  it('an integer parameter takes integers only; a uuid one uuids; a plain string one strings and integers', () => {
    expect(fitsParameter({ type: 'integer' }, { type: 'integer', format: 'int32' })).toBe(true);
    expect(fitsParameter({ type: 'integer' }, { type: 'string' })).toBe(false);
    expect(fitsParameter({ type: 'string', format: 'uuid' }, { type: 'string' })).toBe(false);
    expect(fitsParameter({ type: 'string', format: 'uuid' }, { type: 'string', format: 'uuid' })).toBe(true);
    expect(fitsParameter({ type: 'string' }, { type: 'integer' })).toBe(true);
    expect(fitsParameter({ type: 'string' }, { type: 'object' })).toBe(false);
  });

  it("merges allOf branches: properties, required, and a restated property's facts", () => {
    const shape = objectShape({
      allOf: [
        { type: 'object', required: ['name'], properties: { name: { type: 'string' }, id: { type: 'integer' } } },
        { required: ['id'], properties: { id: { readOnly: true } } },
      ],
    });
    expect([...shape.properties.keys()]).toEqual(['name', 'id']);
    expect([...shape.required]).toEqual(['name', 'id']);
    expect(shape.properties.get('id')).toEqual({ type: 'integer', readOnly: true });
  });

  it('two schemas with the same structure sign alike, whatever their descriptions, key order or allOf nesting', () => {
    const flat = {
      type: 'object',
      required: ['id', 'name'],
      properties: { name: { type: 'string', description: 'a' }, id: { type: 'integer', format: 'int64' } },
    };
    const split = {
      allOf: [
        { properties: { id: { format: 'int64', type: 'integer' } }, required: ['id'] },
        { properties: { name: { type: 'string' } }, required: ['name'] },
      ],
    };
    expect(structureSignature(split)).toBe(structureSignature(flat));
    expect(structureSignature({ ...flat, required: ['name'] })).not.toBe(structureSignature(flat));
    expect(structureSignature({ ...flat, properties: { ...flat.properties, id: { type: 'integer', format: 'int32' } } })).not.toBe(structureSignature(flat));
  });
});
