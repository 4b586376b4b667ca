/**
 * A create with no item path whose body's one required integer is a count its author bounded
 * (DigitalOcean's inference_create_image: `n`, 1 to 10 images): test/resources/documents/image-generations.yaml.
 * Inference had taken `n` for a client-assigned identifier, so a second request for one image was
 * refused as a duplicate of the first. A bounded count identifies nothing: the operation is mocked.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/image-generations.yaml', import.meta.url));

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
