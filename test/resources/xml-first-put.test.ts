/**
 * serve reads a request body by its JSON declaration (core's requestBodySchema), not by whichever
 * media type the document declares first: test/resources/documents/xml-first-put.yaml's PUT declares
 * application/xml first, carrying the id, and JSON with the id readOnly. A JSON body naming another
 * id than the path's has it ignored (readOnly: the server's), not refused as a mismatch.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/xml-first-put.yaml', import.meta.url));

describe('a PUT whose first media type is XML', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const write = (method: string, path: string, body: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, body: JSON.stringify(body) });

  it('ignores the readOnly id of the JSON body, as the JSON declaration says', async () => {
    const created = await write('POST', '/notes', { text: 'first' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    const replaced = await write('PUT', `/notes/${id}`, { id: id + 1, text: 'second' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toEqual({ id, text: 'second' });
  });
});
