/**
 * An operation that declares no responses at all (OpenAPI 3.1 allows it; the OAI's
 * non-oauth-scopes.yaml has one): there is nothing to mock, so it answers 204 No Content, not a
 * 500 that would blame the server for what the document leaves unsaid.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUTH, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/documents/non-oauth-scopes.yaml', import.meta.url));

describe('an operation without responses', () => {
  const server = serverFor({ spec: DOCUMENT });

  it('answers 204 with no body', async () => {
    const reply = await send(`${server.current.url}/users`, { headers: AUTH });
    expect(reply.status, reply.text).toBe(204);
    expect(reply.text).toBe('');
  });

  it('still checks its security first', async () => {
    expect((await send(`${server.current.url}/users`)).status).toBe(401);
  });
});
