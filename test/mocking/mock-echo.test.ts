/**
 * A mocked create says back what was sent (ambiguous.yaml's POST /things is left to the mocker,
 * since inference cannot tell which property identifies a Thing): the properties the answer and the
 * request declare alike carry the values sent, and an optional one not sent is left out, so the
 * answer is what a real server of the document would give, not the schema's placeholder "string".
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectConforms } from '../resources/conforms.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/documents/ambiguous.yaml', import.meta.url));

describe('a mocked create', () => {
  const server = serverFor({ spec: DOCUMENT });
  const post = (body: string) => send(`${server.current.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('carries back the values sent, and no optional property that was not sent', async () => {
    const reply = await post('{"code":"","sku":"A-1"}');
    expect(reply.status).toBe(201);
    expect(reply.json).toEqual({ code: '', sku: 'A-1' });
    expectConforms(server.current.document, 'post', '/things', reply);
    expect((await post('{"code":"c","sku":"s","label":"🌱"}')).json).toEqual({ code: 'c', sku: 's', label: '🌱' });
  });
});

describe('a mocked answer whose first media type is XML', () => {
  // test/mocking/documents/xml-first-echo.yaml: the XML bodies name the text Text, the JSON ones text.
  const server = serverFor({ spec: fileURLToPath(new URL('./documents/xml-first-echo.yaml', import.meta.url)) });

  it('says back what was sent by the JSON bodies, not by the XML ones declared first', async () => {
    const reply = await send(`${server.current.url}/previews`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hello"}' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ text: 'hello' });
    expectConforms(server.current.document, 'post', '/previews', reply);
  });
});
