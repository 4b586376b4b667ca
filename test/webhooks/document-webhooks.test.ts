/** The public Plant Store's newPlant webhook, found through the resource model and delivered for a plant. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { documentWebhooks } from '../../src/webhooks/document-webhooks.js';

const PUBLIC = new URL('../../spec/plant-store-public.yaml', import.meta.url).pathname;

it("delivers the public Plant Store's newPlant after a plant is created", async () => {
  const bodies: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(body);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const document = await loadDocument(PUBLIC);
  const model = inferResources(document);
  const webhooks = documentWebhooks(document, model, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/plants`);
  try {
    expect(webhooks.names).toEqual(['newPlant']);
    const plants = model.resources.find((resource) => resource.name === 'plants');
    if (!plants) throw new Error('the public Plant Store has a plants resource');
    webhooks.created(plants, { name: 'Fern', tag: 'fern', id: 9223372036854775807n }, 'shared');
    await expect.poll(() => webhooks.sender.deliveries()[0]?.state, { timeout: 5000, interval: 10 }).toBe('delivered');
    expect(bodies).toEqual(['{"name":"Fern","tag":"fern","id":9223372036854775807}']);
  } finally {
    await webhooks.sender.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

it('refuses a --webhook that is not an http(s) URL, or carries credentials, naming the flag', async () => {
  const document = await loadDocument(PUBLIC);
  const model = inferResources(document);
  expect(() => documentWebhooks(document, model, 'ftp://example.com/x')).toThrow(
    /--webhook must be an http:\/\/ or https:\/\/ URL, not "ftp:\/\/example.com\/x"/,
  );
  expect(() => documentWebhooks(document, model, 'not a url')).toThrow(/--webhook must be/);
  expect(() => documentWebhooks(document, model, 'http://user:secret@example.com/')).toThrow(/must not carry credentials/);
});
