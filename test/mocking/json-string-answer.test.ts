/**
 * A mocked JSON answer whose schema is a string (uspto.yaml's list-searchable-fields declares
 * `application/json` with `type: string`) is written as JSON text, `"string"`, not the bare word:
 * prism names the header `Content-type`, which must still count as JSON.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/documents/uspto.yaml', import.meta.url));

describe('a mocked JSON string', () => {
  const server = serverFor({ spec: DOCUMENT });

  it('is written as a JSON string', async () => {
    const reply = await send(`${server.current.url}/oa_citations/v1/fields`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.text).toBe('"string"');
  });
});
