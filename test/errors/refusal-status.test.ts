/**
 * Over HTTP, a refusal's status is chosen by meaning among what the operation declares
 * (test/fixtures/error-shapes.yaml): a wrong content type is no 404 because 404 is the only
 * failure declared, and `default` or `4XX` give each refusal its own status.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUTH, JSON_TYPE, send, serverFor, VALID_HEADERS } from '../support/server.js';

const SHAPES = fileURLToPath(new URL('../fixtures/error-shapes.yaml', import.meta.url));

const post = (url: string, body: string, headers: Readonly<Record<string, string>> = VALID_HEADERS) => send(url, { method: 'POST', headers, body });

describe('refusal statuses by meaning', () => {
  const server = serverFor({ spec: SHAPES });

  it('answers a wrong content type 400, not the only declared failure (404)', async () => {
    const reply = await post(`${server.current.url}/things`, '{"name":"x"}', { 'content-type': 'text/plain' });
    expect(reply.status, reply.text).toBe(400);
  });

  it('answers a schema violation 400 there too, and malformed JSON 400', async () => {
    expect((await post(`${server.current.url}/things`, '{"name":5}', JSON_TYPE)).status).toBe(400);
    expect((await post(`${server.current.url}/things`, '{"name":', JSON_TYPE)).status).toBe(400);
  });

  it('gives each refusal its own status under default', async () => {
    const url = `${server.current.url}/pets`;
    expect((await post(url, '{"name":"x"}', JSON_TYPE)).status).toBe(401);
    expect((await post(url, '{"name":"x"}', { ...AUTH, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(url, '{"name":5}')).status).toBe(422);
    expect((await post(url, '{"name":')).status).toBe(400);
  });

  it('gives each refusal its own status under 4XX', async () => {
    const url = `${server.current.url}/strict`;
    expect((await post(url, '{"name":"x"}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(url, '{}')).status).toBe(422);
  });

  it('prefers 422 for a schema violation and 400 for the rest where both are declared', async () => {
    const url = `${server.current.url}/problems`;
    expect((await post(url, '{}')).status).toBe(422);
    expect((await post(url, '{"name":')).status).toBe(400);
    expect((await post(url, '{"name":"x"}', { 'content-type': 'text/plain' })).status).toBe(400);
  });
});
