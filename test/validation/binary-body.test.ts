/**
 * A binary request body (image/png, with bytes that are not UTF-8) is checked for its declared
 * media type only and taken as bytes: it used to be refused as "not valid UTF-8", as if it were
 * text. A text body is still held to UTF-8.
 */
import { describe, expect, it } from 'vitest';
import { expectError, send, serverFor } from '../support/server.js';

const UPLOADS = {
  openapi: '3.0.3',
  info: { title: 'Uploads', version: '1' },
  paths: {
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: {
          required: true,
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'text/plain': { schema: { type: 'string' } } },
        },
        responses: { '200': { description: 'stored', content: { 'application/json': { example: { stored: true } } } } },
      },
    },
  },
};
const NOT_UTF8 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x80, 0xc3, 0x28]);

describe('binary request bodies', () => {
  const server = serverFor({ spec: UPLOADS });

  it('accepts an image whose bytes are not UTF-8', async () => {
    const reply = await send(`${server.current.url}/upload`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: NOT_UTF8 });
    expect({ status: reply.status, json: reply.json }).toEqual({ status: 200, json: { stored: true } });
  });

  it('still refuses a text body that is not UTF-8', async () => {
    const reply = await send(`${server.current.url}/upload`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: NOT_UTF8 });
    expect(expectError(reply, 400, 400)).toContain('UTF-8');
  });
});
