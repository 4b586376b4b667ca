/** The create form's starting body (src/core/openapi/example.ts): the document's example first, else a minimal body its schema accepts. */
import { expect, test } from 'vitest';
import { requestBodyExample } from '../../src/core/openapi/example.js';
import { minimalValue } from '../../src/core/schema/value.js';
import { bundledSpecPath, loadDocument } from '../../src/core/openapi/load-document.js';
import { compileDataCheck } from '../../src/server/options/schema-check.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;

async function createOf(file: string, path: string) {
  const document = await loadDocument(file);
  const operation = document.operations.find((candidate) => candidate.method === 'post' && candidate.path === path);
  if (!operation) throw new Error(`no POST ${path} in ${file}`);
  return operation;
}

test("the Plant Store: the media type's first example, as the document writes it", async () => {
  expect(requestBodyExample(await createOf(bundledSpecPath(), '/plants'))).toEqual({
    value: { name: 'Monstera deliciosa', tag: 'aroid', id: 1 },
    source: 'document',
  });
});

test('owners-pets: no example, so the required properties with minimal values', async () => {
  expect(requestBodyExample(await createOf(`${FIXTURES}owners-pets.yaml`, '/owners/{ownerId}/pets'))).toEqual({
    value: { name: 'text', species: 'text' },
    source: 'generated',
  });
});

test("a schema's own example wins over generating one", () => {
  const operation = {
    request: { body: { contents: [{ id: 'c', mediaType: 'application/json', schema: { type: 'object', example: { name: 'Rex' } } }] } },
  };
  expect(requestBodyExample(operation as never)).toEqual({ value: { name: 'Rex' }, source: 'document' });
});

test('a generated body is one the schema accepts: formats, bounds, enums, allOf, nested and readOnly', () => {
  const schema = {
    allOf: [
      {
        type: 'object',
        required: ['id', 'when'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, when: { type: 'string', format: 'date-time' } },
      },
      {
        type: 'object',
        required: ['size', 'kind', 'code', 'owner', 'tags', 'ratio'],
        properties: {
          size: { type: 'integer', minimum: 5, maximum: 9 },
          ratio: { type: 'number', exclusiveMaximum: 0 },
          kind: { enum: ['cat', 'dog'] },
          code: { type: 'string', minLength: 6, maxLength: 6 },
          owner: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } },
          tags: { type: 'array', minItems: 1, items: { type: ['string', 'null'] } },
        },
      },
    ],
  };
  const value = minimalValue(schema, { direction: 'request' });
  expect(value).toEqual({
    when: '2024-01-01T00:00:00Z',
    size: 5,
    ratio: -1,
    kind: 'cat',
    code: 'textxx',
    owner: { email: 'user@example.com' },
    tags: ['text'],
  });
  // Checked by a real validator (the one the config file uses), without the readOnly id: a client does not send it.
  const withoutId = { ...schema, allOf: [{ ...schema.allOf[0], required: ['when'] }, schema.allOf[1]] };
  expect(() => compileDataCheck(withoutId as never)(value, '')).not.toThrow();
});

test("no example for the body: the required properties, with every example value the schema's properties give (nested too)", async () => {
  const petstore = `${FIXTURES}swagger-petstore3.yaml`;
  expect(requestBodyExample(await createOf(petstore, '/user'))).toEqual({
    value: { id: 10, username: 'theUser', firstName: 'John', lastName: 'James', email: 'john@email.com', password: '12345', phone: '12345', userStatus: 1 },
    source: 'generated',
  });
  expect(requestBodyExample(await createOf(petstore, '/pet'))).toEqual({
    value: { id: 10, name: 'doggie', category: { id: 1, name: 'Dogs' }, photoUrls: [] },
    source: 'generated',
  });
});

test('a readOnly property is left out: of a generated body, and of the one the document gives', async () => {
  expect(requestBodyExample(await createOf(`${FIXTURES}tickets.yaml`, '/tickets'))).toEqual({ value: { title: 'text' }, source: 'generated' });
  const schema = {
    type: 'object',
    properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, createdAt: { type: 'string', readOnly: true, example: '2024-01-01' } },
  };
  const operation = (example: unknown) => ({
    request: { body: { contents: [{ id: 'c', mediaType: 'application/json', schema, examples: [{ key: 'one', value: example }] }] } },
  });
  expect(requestBodyExample(operation({ id: 'a1', title: 'Printer jam', createdAt: '2024-01-01' }) as never)).toEqual({
    value: { title: 'Printer jam' },
    source: 'document',
  });
});
