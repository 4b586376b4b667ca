/**
 * Another document (test/fixtures/pets.yaml): its other operations are answered from the document
 * by prism-http's mocker, with parameters validated; its createPlant stays stateful.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expectCreated, expectError, postPlant, plantText, send, serverFor } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const PETS = fileURLToPath(new URL('../fixtures/pets.yaml', import.meta.url));

describe('test/fixtures/pets.yaml', () => {
  const server = serverFor({ spec: PETS });

  it('is itself a valid OpenAPI 3.1 document', async () => {
    expect(await new Validator().validate(PETS)).toEqual({ valid: true });
  });

  it('is loaded with its three operations', () => {
    const operations = server.current.document.operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path} ${operation.iid}`).sort();
    expect(operations).toEqual(['GET /pets listPets', 'GET /pets/{petId} getPet', 'POST /plants createPlant']);
  });

  it('answers GET /pets/42 with the example of the document, as JSON', async () => {
    const reply = await send(`${server.current.url}/pets/42`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({ id: 42, name: 'Rex', species: 'dog' });
  });

  it('answers GET /pets?limit=10 with the example list', async () => {
    const reply = await send(`${server.current.url}/pets?limit=10`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual([{ id: 1, name: 'Tom', species: 'cat' }]);
  });

  it('refuses GET /pets?limit=1000 (maximum 100) with 400 and Error 422 naming limit', async () => {
    const reply = await send(`${server.current.url}/pets?limit=1000`);
    expect(expectError(reply, 400, 422)).toContain('limit');
  });

  it('refuses GET /pets?limit=ten with 400 and Error 422', async () => {
    expectError(await send(`${server.current.url}/pets?limit=ten`), 400, 422);
  });

  it('answers a wrong method on a mocked path with 405 and Allow: GET', async () => {
    const reply = await send(`${server.current.url}/pets/42`, { method: 'DELETE' });
    expectError(reply, 405, 405);
    expect(reply.headers.allow).toBe('GET');
  });

  it('keeps POST /plants stateful: created, stored, and the same id again refused with 409', async () => {
    expectCreated(await postPlant(server.current.url, plantText({ name: 'Fern', tag: 'pteridophyte', id: 7 })), { name: 'Fern', tag: 'pteridophyte' });
    expect(await (await storedPlants(server.current)).get(7n)).toEqual({ id: 7n, name: 'Fern', tag: 'pteridophyte' });
    expectError(await postPlant(server.current.url, plantText({ name: 'Fern again', id: 7 })), 400, 409);
    expect((await (await storedPlants(server.current)).get(7n))?.name).toBe('Fern');
  });

  it('keeps bearer security on POST /plants and none on the open GET operations', async () => {
    expectError(await postPlant(server.current.url, plantText({ name: 'no token', id: 8 }), { 'content-type': 'application/json' }), 400, 401);
    expect((await send(`${server.current.url}/pets/1`)).status).toBe(200);
  });
});
