/**
 * A list answer is never longer than its schema allows: the OAI petstore's `Pets` is an array with
 * `maxItems: 100`, and a list asked without a limit answered every pet the stand-in held (105 here),
 * an answer its own document refuses (found by verify against serve, issue 21's item hand-off).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { send, serverFor } from '../support/server.js';
import { expectConforms } from './conforms.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/petstore.yaml', import.meta.url));

describe('a list page keeps to its schema’s maxItems', () => {
  const server = serverFor({ spec: SPEC });

  it('answers at most maxItems items without a limit; a smaller limit still applies', async () => {
    for (let id = 1; id <= 105; id++) {
      const created = await send(`${server.current.url}/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `pet ${id}` }),
      });
      expect(created.status).toBe(201);
    }
    const page = await send(`${server.current.url}/pets`);
    expect(page.status).toBe(200);
    expect((page.json as unknown[]).length).toBe(100);
    expectConforms(server.current.document, 'get', '/pets', page);
    const limited = await send(`${server.current.url}/pets?limit=7`);
    expect((limited.json as unknown[]).length).toBe(7);
  });
});
