/** The contract itself: spec/plant-store.yaml is a valid OpenAPI 3.1 document that prism-http reads. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import { bundledSpecPath, loadDocument } from '../../src/index.js';

const SPEC = bundledSpecPath();

async function specObject(): Promise<Record<string, unknown>> {
  return parseYaml(await readFile(SPEC, 'utf8')) as Record<string, unknown>;
}

describe('spec/plant-store.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(SPEC);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator rejects a broken copy (a response without its required description)', async () => {
    const broken = await specObject();
    const post = ((broken.paths as Record<string, Record<string, unknown>>)['/plants']?.post ?? {}) as { responses: Record<string, Record<string, unknown>> };
    delete post.responses['200']?.description;
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
    expect(result.errors).toBeDefined();
  });

  it('the validator rejects a copy with a wrongly typed field (openapi version as a number)', async () => {
    const broken = { ...(await specObject()), openapi: 3.1 };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('prism-http loads it as one operation, createPlant POST /plants, secured by HTTP bearer', async () => {
    const document = await loadDocument();
    expect(document.title).toBe('Plant Store');
    expect(document.version).toBe('1.0.0');
    expect(document.operations).toHaveLength(1);
    const [operation] = document.operations;
    expect(operation).toMatchObject({ iid: 'createPlant', method: 'post', path: '/plants' });
    expect(operation?.security).toEqual([[expect.objectContaining({ type: 'http', scheme: 'bearer' })]]);
    expect(operation?.request?.body?.required).toBe(true);
    expect(operation?.request?.body?.contents?.map((content) => content.mediaType)).toEqual(['application/json']);
    expect(operation?.responses.map((response) => response.code).sort()).toEqual(['200', '400']);
  });
});
