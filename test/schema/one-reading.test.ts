/**
 * The disagreements one reading of the data model (src/core/schema/) ends, each shown through the
 * served API: an identifier read one way by the seed and another by the handlers, a writeOnly
 * property the handlers did not know, and an allOf branch that inference merged and the handlers did not.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { send, serverFor } from '../support/server.js';

const TICKETS = new URL('../fixtures/documents/tickets.yaml', import.meta.url).pathname;
const UPPER = 'ABCDEF00-0000-4000-8000-00000000000A';
const DIR = mkdtempSync(join(tmpdir(), 'plantstore-one-reading-'));

function documentFile(name: string, schemas: string, putDeclares400 = false): string {
  const path = join(DIR, `${name}.yaml`);
  writeFileSync(
    path,
    `openapi: 3.0.3
info: { title: ${name}, version: '1' }
paths:
  /things:
    get:
      responses:
        '200': { description: all, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /things/{thingId}:
    parameters:
      - { name: thingId, in: path, required: true, schema: { type: integer, format: int64 } }
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '404': { description: none }
    put:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
${putDeclares400 ? "        '400': { description: refused }\n" : ''}        '404': { description: none }
components:
  schemas:
${schemas}`,
  );
  return path;
}

function caller(server: { readonly current: { readonly url: string } }) {
  return (method: string, path: string, body?: unknown) =>
    send(`${server.current.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
}

describe('a uuid seeded in upper case', () => {
  const server = serverFor({ spec: TICKETS, seedItems: { tickets: [{ id: UPPER, title: 'seeded' }] } });
  const call = caller(server);

  it('is the ticket the API names, in either case, and answers in lower case', async () => {
    for (const id of [UPPER, UPPER.toLowerCase()]) {
      const reply = await call('GET', `/tickets/${id}`);
      expect(reply.status, `${id}: ${reply.text}`).toBe(200);
      expect(reply.json).toMatchObject({ id: UPPER.toLowerCase(), title: 'seeded' });
    }
  });
});

describe('a writeOnly property', () => {
  const closed = documentFile(
    'write-only',
    `    Thing:
      type: object
      required: [name]
      properties:
        id: { type: integer, format: int64, readOnly: true }
        name: { type: string }
        password: { type: string, writeOnly: true }
`,
  );
  const open = documentFile(
    'write-only-open',
    `    Thing:
      type: object
      additionalProperties: true
      required: [name]
      properties:
        id: { type: integer, format: int64, readOnly: true }
        name: { type: string }
        password: { type: string, writeOnly: true }
`,
  );
  for (const [label, spec] of [
    ['a closed schema', closed],
    ['an open schema', open],
  ] as const) {
    const server = serverFor({ spec });
    const call = caller(server);
    it(`is stored but never answered (${label}): not by the create, the read, the replace nor the list`, async () => {
      const created = await call('POST', '/things', { name: 'a', password: 'hunter2' });
      expect(created.status, created.text).toBe(201);
      const id = (created.json as { id: number }).id;
      const replaced = await call('PUT', `/things/${id}`, { name: 'b', password: 'hunter3' });
      expect(replaced.status, replaced.text).toBe(200);
      const answers = [created, await call('GET', `/things/${id}`), replaced, await call('GET', '/things')];
      for (const reply of answers) expect(reply.text).not.toContain('hunter');
      expect(answers[1]?.json).toEqual({ id, name: 'b' });
    });
  }
});

describe('a later allOf branch that restates the id as readOnly', () => {
  const spec = documentFile(
    'restated-read-only',
    `    Thing:
      allOf:
        - type: object
          required: [name]
          properties:
            id: { type: integer, format: int64 }
            name: { type: string }
        - properties:
            id: { readOnly: true }
`,
    true,
  );
  const server = serverFor({ spec });
  const call = caller(server);

  it('is readOnly to inference (the server assigns the id) and to the handler (a sent id is ignored, the path names the item)', async () => {
    const model = inferResources(await loadDocument(spec));
    expect(model.resources.map((resource) => [resource.name, resource.identifier.assignedBy])).toEqual([['things', 'server']]);
    const created = await call('POST', '/things', { name: 'a' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    const replaced = await call('PUT', `/things/${id}`, { id: id + 1000, name: 'b' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toEqual({ id, name: 'b' });
  });
});

afterAll(() => rmSync(DIR, { recursive: true, force: true }));
