/** The banner says, per scheme the document declares, what is enforced; a challenge only for HTTP schemes. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { authLines } from '../../src/cli/auth-banner.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';

const SCHEMES = fileURLToPath(new URL('../fixtures/auth-schemes.yaml', import.meta.url));

describe('the auth lines of the banner', () => {
  it('with tokens: each scheme, how it is carried, a configured token, the challenge for HTTP schemes only', async () => {
    const { operations } = await loadDocument(SCHEMES);
    expect(authLines(operations, 2, undefined)).toEqual([
      'tokens: 2 configured; other credentials are refused (as bearer tokens, API keys, Basic user:password or password)',
      'auth, per scheme:',
      '  apiKey Authorization (header, "Token <key>"): Authorization: Token <key> (the "Token" prefix is required), a configured token; no WWW-Authenticate (not an HTTP scheme)',
      '  apiKey api_key (query): ?api_key=<key>, a configured token; no WWW-Authenticate (not an HTTP scheme)',
      '  apiKey session (cookie): Cookie: session=<key>, a configured token; no WWW-Authenticate (not an HTTP scheme)',
      '  basic: Authorization: Basic <base64 of user:password>, where a configured token is that user:password, or the password (any user); refusals carry WWW-Authenticate: Basic',
      '  bearer: Authorization: Bearer <token>, a configured token; refusals carry WWW-Authenticate: Bearer',
      '  apiKey X-API-Key (header): X-API-Key: <key>, a configured token; no WWW-Authenticate (not an HTTP scheme)',
      'refused credentials: HTTP 401, in the error body the operation declares',
    ]);
  });

  it('without tokens: any non-empty credential; the status each operation declares', async () => {
    const { operations } = await loadDocument(SCHEMES);
    const lines = authLines(operations, 0, 400);
    expect(lines[0]).toBe('tokens: none configured, so ANY non-empty credential is accepted (use --token to restrict)');
    expect(lines).toContain('  bearer: Authorization: Bearer <token>, any non-empty token; refusals carry WWW-Authenticate: Bearer');
    expect(lines.at(-1)).toBe('refused credentials: HTTP 400, in the error body the operation declares');
  });

  it('a document with nothing secured says so', () => {
    expect(authLines([], 0, undefined)).toEqual([
      'tokens: none configured, so ANY non-empty credential is accepted (use --token to restrict)',
      'auth: no operation is secured',
    ]);
  });
});
