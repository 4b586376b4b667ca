/**
 * OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored" (the
 * media types and security schemes say those). DigitalOcean declares Content-Type with the enum
 * [application/json, application/yaml] on its app creates: serve held the header to that enum and
 * refused `application/json; charset=utf-8`, a valid JSON body (verify's valid cases send it),
 * with 422. Such parameters are now left out of the operation when the document is read.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { AUTH, serverFor } from '../support/server.js';

const header = (name: string, values: string[]) => ({ name, in: 'header', required: true, schema: { type: 'string', enum: values } });
const document = {
  openapi: '3.0.0',
  info: { title: 'DigitalOcean shape', version: '2.0' },
  security: [{ bearer_auth: [] }],
  components: { securitySchemes: { bearer_auth: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/v2/apps': {
      post: {
        operationId: 'apps_create',
        parameters: [
          header('Accept', ['application/json', 'application/yaml']),
          header('Content-Type', ['application/json', 'application/yaml']),
          header('X-Request-Tag', ['a', 'b']),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { spec: { type: 'object' } } } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
};

describe('header parameters OpenAPI ignores', () => {
  const server = serverFor({ spec: document });

  it('are not read as parameters; another header parameter is', async () => {
    const [operation] = (await loadDocument(document)).operations;
    expect((operation?.request?.headers ?? []).map((h) => h.name)).toEqual(['X-Request-Tag']);
  });

  it('serve takes a JSON body with a charset, whatever the declared Content-Type enum says', async () => {
    const response = await fetch(`${server.current.url}/v2/apps`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8', accept: '*/*', 'x-request-tag': 'a' },
      body: '{"spec":{}}',
    });
    expect(response.status).toBe(200);
  });
});
