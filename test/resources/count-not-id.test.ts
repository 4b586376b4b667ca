/**
 * A create with no item path whose body's one required integer is a count its author bounded
 * (DigitalOcean's inference_create_image: `n`, 1 to 10 images): test/resources/documents/image-generations.yaml.
 * Inference had taken `n` for a client-assigned identifier, so a second request for one image was
 * refused as a duplicate of the first. A bounded count identifies nothing: the operation is mocked.
 * Nor does a count its name says, bounded or not: Anthropic's `max_tokens` (test/resources/documents/messages.yaml)
 * had been taken for the id, so a second message asking for as many tokens was refused (409).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { isCountName } from '../../src/core/resources/key-names.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/image-generations.yaml', import.meta.url));
const SEED = fileURLToPath(new URL('../../spec/plant-store.yaml', import.meta.url));

describe('a bounded count in a create body with no item path', () => {
  it('is no identifier: no resource is inferred', async () => {
    expect(inferResources(await loadDocument(DOCUMENT)).resources).toEqual([]);
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  it('lets every request ask for as many as another did', async () => {
    for (let round = 0; round < 2; round += 1) {
      const body = JSON.stringify({ prompt: 'a fern', model: 'image-1', n: 1 });
      const answered = await send(`${server.current.url}/v1/images/generations`, { method: 'POST', headers: JSON_TYPE, body });
      expect(answered.status, answered.text).toBe(200);
    }
  });
});

const MESSAGES = fileURLToPath(new URL('./documents/messages.yaml', import.meta.url));

describe('a count without a maximum in a create body with no item path', () => {
  it('is no identifier: its name says how many (max_tokens)', async () => {
    const model = inferResources(await loadDocument(MESSAGES));
    expect(model.resources).toEqual([]);
  });

  it('while the seed Plant Store keeps its client-given int64 id', async () => {
    const [plants] = inferResources(await loadDocument(SEED)).resources;
    expect(plants?.identifier).toMatchObject({ property: 'id', assignedBy: 'client', type: { kind: 'integer' } });
  });

  it('is told by its name', () => {
    for (const name of ['max_tokens', 'maxTokens', 'n', 'count', 'numItems', 'numberOfSeats', 'page_size', 'total', 'quantity'])
      expect(isCountName(name), name).toBe(true);
    for (const name of ['id', 'plant_id', 'serial', 'number', 'order_number', 'transfer_id']) expect(isCountName(name), name).toBe(false);
  });

  const server = serverFor({ spec: MESSAGES, logLevel: 'silent' });
  it('lets every request ask for as many tokens as another did', async () => {
    for (let round = 0; round < 2; round += 1) {
      const body = JSON.stringify({ model: 'claude', max_tokens: 1024, messages: [{ role: 'user', content: 'a fern?' }] });
      const answered = await send(`${server.current.url}/v1/messages`, { method: 'POST', headers: JSON_TYPE, body });
      expect(answered.status, answered.text).toBe(200);
    }
  });
});
