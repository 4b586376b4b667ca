/** What a lifecycle expects a read to show of a create: what the item's own declaration can hold (held-value.ts). */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/core/openapi/load-document.js';
import { inferResources } from '../../../src/core/resources/infer.js';
import { parseJsonExact } from '../../generators/json-value.js';
import { sentValues } from './commands.js';

// Box's sign requests: a create's signers need no email (SignRequestCreateSigner), the answer's
// signers require one (SignRequestSigner). serve keeps only what the item's declaration holds, as
// a correct server answers; verify expected every signer sent back and failed stored-content-shown.
const createSigner = { type: 'object', properties: { email: { type: 'string' }, role: { type: 'string' }, order: { type: 'integer' } } };
const answerSigner = { ...createSigner, required: ['email'], properties: { ...createSigner.properties, has_viewed_document: { type: 'boolean' } } };
const document = {
  openapi: '3.0.2',
  info: { title: 'Box shape', version: '1' },
  paths: {
    '/sign_requests': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { name: { type: 'string' }, signers: { type: 'array', items: createSigner } }, required: ['signers'] },
            },
          },
        },
        responses: { '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/SignRequest' } } } } },
      },
    },
    '/sign_requests/{sign_request_id}': {
      parameters: [{ name: 'sign_request_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/SignRequest' } } } } } },
    },
  },
  components: {
    schemas: {
      SignRequest: {
        type: 'object',
        properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, signers: { type: 'array', items: answerSigner } },
      },
    },
  },
};

describe('sentValues', () => {
  it('expects back a value the item declares otherwise only where its declaration holds it (Box’s signers without an email)', async () => {
    const [resource] = inferResources(await loadDocument(document)).resources;
    if (resource === undefined) throw new Error('no resource');
    const without = sentValues(resource, parseJsonExact('{"name":"n","signers":[{"role":"signer"}]}'), undefined);
    expect(without.map((v) => v.property)).toEqual(['name']);
    const withEmail = sentValues(resource, parseJsonExact('{"name":"n","signers":[{"email":"a@b.co"}]}'), undefined);
    expect(withEmail.map((v) => v.property).sort()).toEqual(['name', 'signers']);
  });
});
