/**
 * GET / and GET /__control answer a small pointer instead of 404: someone who opens the stand-in's
 * URL in a browser learns what it serves and where the control API and the inspector are.
 */
import { describe, expect, it } from 'vitest';
import { expectError, send, serverFor } from '../support/server.js';

describe('the front doors', () => {
  const server = serverFor({ adminToken: 'admin-secret' });

  it('GET / names the document, its operations, the control API and the inspector', async () => {
    const reply = await send(`${server.current.url}/`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({
      title: 'Plant Store',
      version: '1.0.0',
      operations: [{ method: 'POST', path: '/plants', operation: 'createPlant' }],
      control: '/__control',
      health: '/__control/health',
      inspector: '/__inspector',
    });
  });

  it('GET /__control lists the control operations, without the admin token (they are public paths)', async () => {
    const reply = await send(`${server.current.url}/__control`);
    expect(reply.status).toBe(200);
    const pointer = reply.json as { title: string; operations: Array<{ path: string }>; api: string };
    expect(pointer.title).toBe('plantstore control API');
    expect(pointer.api).toBe('/');
    expect(pointer.operations.map((operation) => operation.path)).toContain('/__control/journal');
  });

  it('other methods and other unknown paths keep their 405 and 404', async () => {
    expectError(await send(`${server.current.url}/`, { method: 'POST' }), 404, 404);
    expectError(await send(`${server.current.url}/elsewhere`), 404, 404);
  });
});

describe('a document that declares /', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'Root', version: '1' },
    paths: {
      '/': { get: { operationId: 'getRoot', responses: { '200': { description: 'ok', content: { 'application/json': { example: { mine: true } } } } } } },
    },
  };
  const server = serverFor({ spec: document });

  it('answers its own operation there', async () => {
    const reply = await send(`${server.current.url}/`);
    expect(reply.json).toEqual({ mine: true });
  });
});
