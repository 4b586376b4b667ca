/**
 * Webhook delivery against a real receiver over HTTP: the payload is the item shaped and checked
 * by the document's webhook schema (int64 exact), retried on 5xx and unreachable receivers, given
 * up on a refusal, and never sent when it would break the document.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { compileWebhookPayload, type WebhookPayload } from '../../src/webhooks/payload.js';
import { createWebhookSender, delayBefore, type WebhookAttempt, type WebhookSender } from '../../src/webhooks/sender.js';

const NEW_PLANT = {
  type: 'object',
  required: ['name', 'id'],
  properties: { name: { type: 'string' }, tag: { type: 'string' }, id: { type: 'integer', format: 'int64' } },
};

async function newPlantPayload(): Promise<WebhookPayload> {
  const document = await loadDocument({
    openapi: '3.1.0',
    info: { title: 'hooks', version: '1' },
    paths: {
      '/plant/webhook': {
        post: { requestBody: { required: true, content: { 'application/json': { schema: NEW_PLANT } } }, responses: { '200': { description: 'ok' } } },
      },
    },
  });
  const payload = compileWebhookPayload('newPlant', document.operations[0] as (typeof document.operations)[number]);
  if (payload === undefined) throw new Error('the webhook has a JSON body');
  return payload;
}

interface Received {
  readonly body: string;
  readonly headers: IncomingMessage['headers'];
}

/** A receiver answering each delivery with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[]): Promise<{ url: URL; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(statuses[Math.min(received.length, statuses.length) - 1] ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`), received, server };
}

const FAST = { attempts: 3, baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 1000 };
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

function track(sender: WebhookSender, server?: Server): WebhookSender {
  cleanup.push(() => sender.close());
  if (server) cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return sender;
}

async function settled(sender: WebhookSender): Promise<void> {
  await expect.poll(() => sender.deliveries().every((delivery) => delivery.state !== 'pending'), { timeout: 5000, interval: 10 }).toBe(true);
}

describe('webhook delivery', () => {
  it('sends the item shaped by the webhook schema, its int64 id digit for digit', async () => {
    const { url, received, server } = await receiver([200]);
    const sender = track(createWebhookSender({ url, payloads: new Map([['newPlant', await newPlantPayload()]]), retry: FAST }), server);
    sender.notify(['newPlant'], 'plants', { name: 'Fern', id: 9007199254740993n, createdBy: 'not in the schema' }, 'shared');
    await settled(sender);
    expect(received.map((entry) => entry.body)).toEqual(['{"name":"Fern","id":9007199254740993}']);
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.headers['plantstore-webhook']).toBe('newPlant');
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(sender.deliveries()).toMatchObject([{ webhook: 'newPlant', resource: 'plants', state: 'delivered', attempts: 1, status: 200 }]);
  });

  it('retries a 503 with backoff and journals every attempt', async () => {
    const { url, received, server } = await receiver([503, 503, 204]);
    const attempts: WebhookAttempt[] = [];
    const sender = track(
      createWebhookSender({ url, payloads: new Map([['newPlant', await newPlantPayload()]]), retry: FAST, onAttempt: (attempt) => attempts.push(attempt) }),
      server,
    );
    sender.notify(['newPlant'], 'plants', { name: 'Fern', id: 1 }, 'shared');
    await settled(sender);
    expect(received).toHaveLength(3);
    expect(attempts.map((attempt) => attempt.response?.status)).toEqual([503, 503, 204]);
    expect(sender.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 3, status: 204 });
  });

  it('gives up at once on a refusal (4xx other than 408/425/429)', async () => {
    const { url, received, server } = await receiver([400]);
    const sender = track(createWebhookSender({ url, payloads: new Map([['newPlant', await newPlantPayload()]]), retry: FAST }), server);
    sender.notify(['newPlant'], 'plants', { name: 'Fern', id: 1 }, 'shared');
    await settled(sender);
    expect(received).toHaveLength(1);
    expect(sender.deliveries()[0]).toMatchObject({ state: 'failed', attempts: 1, status: 400, error: 'the receiver refused it with 400' });
  });

  it('tries an unreachable receiver `attempts` times, then says why it gave up', async () => {
    const { url, server } = await receiver([200]);
    await new Promise((resolve) => server.close(resolve));
    const sender = track(createWebhookSender({ url, payloads: new Map([['newPlant', await newPlantPayload()]]), retry: FAST }));
    sender.notify(['newPlant'], 'plants', { name: 'Fern', id: 1 }, 'shared');
    await settled(sender);
    const [delivery] = sender.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', attempts: 3 });
    expect(delivery?.error).toMatch(/^gave up after 3 attempts: .*ECONNREFUSED/);
  });

  it('does not send a payload that breaks the document, and says which rule', async () => {
    const { url, received, server } = await receiver([200]);
    const sender = track(createWebhookSender({ url, payloads: new Map([['newPlant', await newPlantPayload()]]), retry: FAST }), server);
    sender.notify(['newPlant'], 'pets', { id: 5, nickname: 'Rex' }, 'shared');
    await settled(sender);
    expect(received).toHaveLength(0);
    expect(sender.deliveries()[0]).toMatchObject({ state: 'invalid', attempts: 0 });
    expect(sender.deliveries()[0]?.error).toMatch(/webhook newPlant.*name/);
  });

  it('close() ends a delivery waiting to retry instead of holding the server open', async () => {
    const { url, server } = await receiver([503]);
    const sender = createWebhookSender({
      url,
      payloads: new Map([['newPlant', await newPlantPayload()]]),
      retry: { ...FAST, attempts: 10, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    sender.notify(['newPlant'], 'plants', { name: 'Fern', id: 1 }, 'shared');
    await expect.poll(() => sender.deliveries()[0]?.attempts, { timeout: 5000, interval: 10 }).toBe(1);
    const started = Date.now();
    await sender.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sender.deliveries()[0]).toMatchObject({ state: 'failed' });
  });

  it('backs off exponentially within the longest delay, and takes Retry-After in seconds', () => {
    const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000, timeoutMs: 1000 };
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const ceiling = Math.min(1000, 100 * 2 ** (attempt - 1));
      const delay = delayBefore(attempt, policy);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
    expect(delayBefore(1, policy, '0')).toBe(0);
    expect(delayBefore(1, policy, '3600')).toBe(1000);
  });
});
