import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { compileSchemaCheck, validateAgainstSchema } from '../../src/core/prism/adapter.js';

/**
 * The server compiles each body schema once instead of calling prism's validateAgainstSchema per
 * request. Both must give the same diagnostics, word for word, for any value.
 */
const INPUT = 0;

function prismDiagnostics(value: unknown, schema: object): unknown {
  const result = validateAgainstSchema(value, schema, false, INPUT, 'body', undefined);
  return result._tag === 'None' ? undefined : result.value;
}

const RICH_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['when', 'mail', 'kind'],
  additionalProperties: false,
  properties: {
    when: { type: 'string', format: 'date-time' },
    mail: { type: 'string', format: 'email' },
    kind: { enum: ['fern', 'cactus'] },
    code: { type: 'string', pattern: '^[A-Z]{2}\\d+$', maxLength: 6 },
    size: {
      oneOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', minLength: 1 },
      ],
    },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
    both: { allOf: [{ type: 'number', multipleOf: 0.5 }, { maximum: 10 }] },
  },
} as const;

const values = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      tag: fc.oneof(fc.string(), fc.boolean()),
      id: fc.oneof(fc.integer(), fc.double(), fc.string()),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      when: fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        fc.string(),
      ),
      mail: fc.oneof(fc.constant('a@b.example'), fc.string()),
      kind: fc.constantFrom('fern', 'cactus', 'rose'),
      code: fc.oneof(fc.constant('AB12'), fc.string()),
      size: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      tags: fc.array(fc.constantFrom('a', 'b', 'c', 'd')),
      both: fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(1.5, 11, 4)),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

describe('compiled body checks agree with prism-http', () => {
  it('for the Plant Store request and response schemas', async () => {
    const [operation] = (await loadDocument()).operations;
    const schemas = [operation?.request?.body?.contents?.[0]?.schema, ...(operation?.responses ?? []).map((response) => response.contents?.[0]?.schema)].filter(
      (schema): schema is NonNullable<typeof schema> => schema !== undefined,
    );
    expect(schemas).toHaveLength(3);
    for (const schema of schemas) {
      const check = compileSchemaCheck(schema, undefined);
      fc.assert(
        fc.property(values, (value) => {
          expect(check(value)).toEqual(prismDiagnostics(value, schema));
        }),
        { numRuns: 400, seed: 20261122 },
      );
    }
  });

  it('for formats, patterns, oneOf, allOf and a 2020-12 $schema', () => {
    const check = compileSchemaCheck(RICH_SCHEMA, undefined);
    fc.assert(
      fc.property(values, (value) => {
        expect(check(value)).toEqual(prismDiagnostics(value, RICH_SCHEMA));
      }),
      { numRuns: 600, seed: 7 },
    );
  });

  it('and the comparison can fail: a check without formats disagrees', () => {
    const check = compileSchemaCheck({ ...RICH_SCHEMA, properties: { ...RICH_SCHEMA.properties, when: { type: 'string' } } }, undefined);
    const value = { when: 'not a date', mail: 'a@b.example', kind: 'fern' };
    expect(check(value)).not.toEqual(prismDiagnostics(value, RICH_SCHEMA));
  });
});
