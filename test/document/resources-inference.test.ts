/**
 * Golden tests of resource inference (src/core/resources/infer.ts): for each document, the model
 * inferred is compared exactly with the reviewed expectation next to it
 * (test/fixtures/documents/<name>.resources.json; bigints as decimal strings, schemas summarised
 * as their property names). The fixtures' sources and licences: test/fixtures/documents/README.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { objectShape } from '../../src/core/schema/properties.js';
import type { ResourceModel } from '../../src/core/resources/model.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url).pathname;
const SPEC = new URL('../../spec/', import.meta.url).pathname;

/** Every document with a golden: the OpenAPI Initiative's examples, ours, public ones, and the two Plant Stores. */
const DOCUMENTS: Readonly<Record<string, string>> = {
  petstore: `${FIXTURES}petstore.yaml`,
  'petstore-expanded': `${FIXTURES}petstore-expanded.yaml`,
  uspto: `${FIXTURES}uspto.yaml`,
  'api-with-examples': `${FIXTURES}api-with-examples.yaml`,
  'link-example': `${FIXTURES}link-example.yaml`,
  'callback-example': `${FIXTURES}callback-example.yaml`,
  'webhook-example': `${FIXTURES}webhook-example.yaml`,
  'non-oauth-scopes': `${FIXTURES}non-oauth-scopes.yaml`,
  'owners-pets': `${FIXTURES}owners-pets.yaml`,
  tickets: `${FIXTURES}tickets.yaml`,
  'pets-crud': `${FIXTURES}pets-crud.yaml`,
  ambiguous: `${FIXTURES}ambiguous.yaml`,
  'swagger-petstore3': `${FIXTURES}swagger-petstore3.yaml`,
  'optional-ids': `${FIXTURES}optional-ids.yaml`,
  museum: `${FIXTURES}museum.yaml`,
  articles: `${FIXTURES}articles.yaml`,
  conduit: `${FIXTURES}conduit.yaml`,
  'realworld-conduit': `${FIXTURES}realworld-conduit.yaml`,
  discriminators: `${FIXTURES}discriminators.yaml`,
  'common-parameters': `${FIXTURES}common-parameters.yaml`,
  tictactoe: `${FIXTURES}tictactoe.yaml`,
  'todo-items': `${FIXTURES}todo-items.yaml`,
  'plant-store': `${SPEC}plant-store.yaml`,
  'plant-store-public': `${SPEC}plant-store-public.yaml`,
};

/** The model as readable JSON: bigints as strings, each schema as the properties it declares. */
export function summarise(model: ResourceModel): unknown {
  return JSON.parse(
    JSON.stringify(model, (key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      // An operation in the sign-in as the document names it: its method and path.
      if (key === 'signUp' || key === 'logIn' || key === 'currentUser' || key === 'updateUser' || key === 'logOut') {
        const operation = value as { method: string; path: string };
        return `${operation.method.toUpperCase()} ${operation.path}`;
      }
      if (key === 'createSchema' || key === 'itemSchema') {
        const shape = objectShape(value);
        return { properties: [...shape.properties.keys()], required: [...shape.required] };
      }
      return value;
    }),
  );
}

async function inferred(path: string): Promise<unknown> {
  try {
    return summarise(inferResources(await loadDocument(path)));
  } catch (error) {
    // A document plantstore cannot serve has its refusal as its golden.
    return { refused: (error as Error).message.replace(path, '<document>') };
  }
}

function golden(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.resources.json`, 'utf8'));
}

describe('resources inferred from documents (golden)', () => {
  for (const [name, path] of Object.entries(DOCUMENTS)) {
    it(name, async () => {
      expect(await inferred(path)).toEqual(golden(name));
    });
  }
});

describe('a property that holds one value names no item', () => {
  it("Box's shield barrier segment restrictions: the create's required type (enum of one) is no id; the answer's id is", async () => {
    // Box's POST /shield_information_barrier_segment_restrictions: type, restricted_segment and
    // shield_information_barrier_segment required; type's enum has one value. Every create had that
    // "id" and serve refused all but the first as a duplicate (409).
    const restriction = { type: 'string', enum: ['shield_information_barrier_segment_restriction'] };
    const segment = { type: 'object', properties: { id: { type: 'string' }, type: { type: 'string', enum: ['shield_information_barrier_segment'] } } };
    const document = await loadDocument({
      openapi: '3.0.2',
      info: { title: 'Box shape', version: '1' },
      paths: {
        '/shield_information_barrier_segment_restrictions': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['type', 'shield_information_barrier_segment', 'restricted_segment'],
                    properties: { type: restriction, shield_information_barrier_segment: segment, restricted_segment: segment },
                  },
                },
              },
            },
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { id: { type: 'string' }, type: restriction, created_at: { type: 'string', format: 'date-time' } } },
                  },
                },
              },
            },
          },
        },
        '/shield_information_barrier_segment_restrictions/{shield_information_barrier_segment_restriction_id}': {
          parameters: [{ name: 'shield_information_barrier_segment_restriction_id', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, type: restriction } } } },
              },
            },
          },
        },
      },
    });
    const [resource] = inferResources(document).resources;
    expect(resource?.identifier).toMatchObject({ property: 'id', assignedBy: 'server' });
  });
});
