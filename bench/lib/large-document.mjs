// @ts-check
// A large OpenAPI 3.1 document made to order, for the large-document start-up rows: `resources`
// resources, each with a list (filters, paging), a create, and a read, replace, update and delete by
// id, over shared components ($refs, allOf, enums, formats, readOnly ids, an error schema), with
// descriptions of the length real documents carry. Deterministic: the same count gives the same bytes.
// Public documents of this size can't ship with the repository (their licences and sizes); pass one
// with --document to time it instead.

/** @param {number} index */
function resource(index) {
  const name = `resource${index}`;
  const words = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => `word${(index * 7 + i) % 97}`).join(' ');
  return {
    name,
    schemas: {
      [`${name}New`]: {
        type: 'object',
        description: words(24),
        required: ['title', 'kind'],
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200, description: words(12) },
          kind: { type: 'string', enum: ['alpha', 'beta', 'gamma', 'delta'], description: words(8) },
          count: { type: 'integer', format: 'int32', minimum: 0, description: words(8) },
          price: { type: 'number', minimum: 0, multipleOf: 0.01 },
          tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]{1,16}$' }, maxItems: 10 },
          owner: { $ref: '#/components/schemas/Owner' },
          settings: {
            type: 'object',
            properties: { enabled: { type: 'boolean' }, level: { type: 'integer', minimum: 1, maximum: 5 }, note: { type: ['string', 'null'] } },
          },
        },
      },
      [name]: {
        allOf: [
          { $ref: `#/components/schemas/${name}New` },
          {
            type: 'object',
            required: ['id', 'createdAt'],
            properties: {
              id: { type: 'integer', format: 'int64', readOnly: true },
              createdAt: { type: 'string', format: 'date-time', readOnly: true },
              updatedAt: { type: 'string', format: 'date-time', readOnly: true },
            },
          },
        ],
      },
    },
    paths: {
      [`/${name}s`]: {
        get: {
          operationId: `list${name}`,
          summary: words(6),
          description: words(40),
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'kind', in: 'query', schema: { type: 'string', enum: ['alpha', 'beta', 'gamma', 'delta'] } },
          ],
          responses: {
            200: {
              description: words(6),
              content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } } } },
            },
            400: { $ref: '#/components/responses/BadRequest' },
          },
        },
        post: {
          operationId: `create${name}`,
          description: words(40),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}New` } } } },
          responses: {
            201: { description: words(6), content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
            400: { $ref: '#/components/responses/BadRequest' },
          },
        },
      },
      [`/${name}s/{id}`]: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
        get: {
          operationId: `read${name}`,
          description: words(30),
          responses: {
            200: { description: words(6), content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
            404: { $ref: '#/components/responses/NotFound' },
          },
        },
        put: {
          operationId: `replace${name}`,
          description: words(30),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}New` } } } },
          responses: {
            200: { description: words(6), content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
            400: { $ref: '#/components/responses/BadRequest' },
            404: { $ref: '#/components/responses/NotFound' },
          },
        },
        delete: {
          operationId: `delete${name}`,
          description: words(20),
          responses: { 204: { description: words(6) }, 404: { $ref: '#/components/responses/NotFound' } },
        },
      },
    },
  };
}

/**
 * The document's JSON text, with about `bytes` bytes.
 * @param {number} bytes
 * @returns {string}
 */
export function largeDocument(bytes) {
  const one = JSON.stringify(resource(0)).length;
  const count = Math.max(1, Math.round(bytes / (one * 1.05)));
  const resources = Array.from({ length: count }, (_, index) => resource(index));
  const error = { type: 'object', required: ['error', 'message'], properties: { error: { type: 'string' }, message: { type: 'string' } } };
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: `Large document (${count} resources)`, version: '1.0.0' },
    paths: Object.assign({}, ...resources.map((r) => r.paths)),
    components: {
      schemas: {
        Error: error,
        Owner: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
        ...Object.assign({}, ...resources.map((r) => r.schemas)),
      },
      responses: {
        BadRequest: { description: 'bad request', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        NotFound: { description: 'not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  });
}
