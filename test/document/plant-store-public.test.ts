/** The public, full Plant Store (spec/plant-store-public.yaml): valid OpenAPI 3.1, no operationIds, read by prism-http. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadDocument } from '../../src/index.js';
import { shippedFile } from '../../src/core/openapi/load-document.js';

const SPEC = shippedFile('spec/plant-store-public.yaml');

describe('spec/plant-store-public.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(SPEC);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('declares no operationIds and a newPlant webhook carrying a NewPlant', async () => {
    const text = await readFile(SPEC, 'utf8');
    expect(text).not.toMatch(/^\s*operationId:/m);
    const document = parseYaml(text) as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }> };
    expect(Object.keys(document.webhooks)).toEqual(['newPlant']);
    expect(document.webhooks.newPlant?.post.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/NewPlant' });
  });

  it('prism-http reads its three operations, each secured by HTTP bearer and without an operationId', async () => {
    const document = await loadDocument(SPEC);
    expect(document.operations.map((operation) => `${operation.method} ${operation.path}`).sort()).toEqual([
      'delete /plants/{id}',
      'get /plants',
      'post /plants',
    ]);
    for (const operation of document.operations) {
      expect(operation.iid).toBeUndefined();
      expect(operation.security).toEqual([[expect.objectContaining({ type: 'http', scheme: 'bearer' })]]);
    }
    const list = document.operations.find((operation) => operation.method === 'get');
    expect(list?.request?.query?.map((parameter) => [parameter.name, parameter.required ?? false, parameter.schema?.format])).toEqual([
      ['limit', false, 'int32'],
    ]);
    const remove = document.operations.find((operation) => operation.method === 'delete');
    expect(remove?.request?.path?.map((parameter) => [parameter.name, parameter.schema?.format])).toEqual([['id', 'int64']]);
    expect(remove?.responses.map((response) => response.code).sort()).toEqual(['204', '400']);
  });
});
