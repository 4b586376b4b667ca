/**
 * The first Prefer request was slow because it loaded prism's mocker (faker, json-schema-faker:
 * over a second). An answer the document's examples make is now given without loading it: the
 * mocker stays unloaded until a request needs something generated (dynamic=true). No timing here;
 * the figures are in docs/mocking.md (bench/first-prefer.mjs measures them).
 */
import { describe, expect, it } from 'vitest';
import { isMockerLoaded } from '../../src/core/prism/adapter.js';
import { plantText, postPlant, serverFor, VALID_HEADERS } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

describe('Prefer answered from the examples', () => {
  const server = serverFor();

  it('answers code= and example= from the document without loading the mocker', async () => {
    const named = await postPlant(server.current.url, plantText({ name: 'Fern', id: 1 }), { ...VALID_HEADERS, prefer: 'code=400, example=duplicateId' });
    expect(named.status).toBe(400);
    expect(named.json).toEqual({ error: 409, message: 'a plant with id 1 already exists; ids are unique' });
    const created = await postPlant(server.current.url, plantText({ name: 'Fern', id: 1 }), {
      ...VALID_HEADERS,
      prefer: 'code=200',
      accept: 'application/json',
    });
    expect({ status: created.status, json: created.json }).toEqual({ status: 200, json: { name: 'Monstera deliciosa', tag: 'aroid' } });
    expect(isMockerLoaded()).toBe(false);
    expect(await (await storedPlants(server.current)).get(1n)).toBeUndefined();
  });

  it('loads the mocker when an answer must be generated', async () => {
    const generated = await postPlant(server.current.url, plantText({ name: 'Fern', id: 2 }), { ...VALID_HEADERS, prefer: 'dynamic=true' });
    expect(generated.status).toBe(200);
    expect(isMockerLoaded()).toBe(true);
  });
});
