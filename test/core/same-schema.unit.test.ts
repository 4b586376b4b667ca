/**
 * One reading of "the same schema" (src/core/schema/same-schema.ts), for held-value.ts's holdsOf and
 * refusal-body.ts's common refusal: prism gives each use of one $ref at the top of a body its own
 * object with its own `x-stoplight` id, so two uses of one component differ only there. sameSchema
 * compared them with the id and called them different; the common refusal compared them without it.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { jsonRequestBody, type Operation } from '../../src/core/openapi/operation.js';
import { jsonSchemaOf } from '../../src/core/resources/responses.js';
import { sameSchema, schemaText } from '../../src/core/schema/same-schema.js';
import { holdsOf } from '../../src/core/conformance/held-value.js';

const PARTIAL_PUT = new URL('../resources/documents/partial-put.yaml', import.meta.url).pathname;

async function operations(): Promise<ReadonlyMap<string, Operation>> {
  const document = await loadDocument(PARTIAL_PUT);
  return new Map(document.operations.map((operation) => [operation.iid ?? '', operation]));
}

describe('sameSchema: the same $ref used twice', () => {
  it('two uses of one component are the same schema, though prism gives each its own x-stoplight id', async () => {
    const byId = await operations();
    // post_notes and put_notes_id both send { $ref: NewNote }.
    const create = jsonRequestBody(byId.get('post_notes') as Operation)?.schema as Record<string, unknown>;
    const replace = jsonRequestBody(byId.get('put_notes_id') as Operation)?.schema as Record<string, unknown>;
    expect(create).not.toBe(replace);
    expect(create['x-stoplight']).not.toEqual(replace['x-stoplight']);
    expect(sameSchema(create, replace)).toBe(true);
    // So a value sent as one is held as the other without a check of its own (held-value.ts).
    expect(holdsOf(replace, create, byId.get('put_notes_id'))).toBeUndefined();
  });

  it('schemas that declare otherwise stay different, and the common refusal reads alike what sameSchema does', async () => {
    const byId = await operations();
    const sent = jsonRequestBody(byId.get('post_notes') as Operation)?.schema;
    const answered = jsonSchemaOf(byId.get('post_notes')?.responses.find((response) => response.code === '201'));
    expect(sameSchema(sent, answered)).toBe(false);
    expect(holdsOf(answered, sent, byId.get('post_notes'))).toBeTypeOf('function');
    // The 404 every item operation declares by one $ref (components/responses/Refused): one text.
    const refused = (id: string) => jsonSchemaOf(byId.get(id)?.responses.find((response) => response.code === '404'));
    expect(sameSchema(refused('get_notes_id'), refused('put_folders_id'))).toBe(true);
    expect(schemaText(refused('get_notes_id'))).toBe(schemaText(refused('put_folders_id')));
  });

  it('a recursive schema is never alike another object', () => {
    const a: Record<string, unknown> = { type: 'object' };
    a.properties = { next: a };
    const b: Record<string, unknown> = { type: 'object' };
    b.properties = { next: b };
    expect(schemaText(a)).toBeUndefined();
    expect(sameSchema(a, b)).toBe(false);
    expect(sameSchema(a, a)).toBe(true);
  });
});
