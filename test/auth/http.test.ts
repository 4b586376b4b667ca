/**
 * Bearer authentication: the document secures createPlant with HTTP bearer and declares only 400
 * for failures, so refused credentials are HTTP 400 with Error 401 and a Bearer challenge
 * (or HTTP 401 with authStatus: 401). Tokens are never logged.
 */
import { describe, expect, it } from 'vitest';
import { expectCreated, expectError, idSequence, JSON_TYPE, postPlant, plantText, serverFor, type Reply } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(1_000n);

function postWith(url: string, authorization: string | undefined): Promise<Reply> {
  const headers = authorization === undefined ? { ...JSON_TYPE } : { ...JSON_TYPE, authorization };
  return postPlant(url, plantText({ name: 'Aloe', id: nextId() }), headers);
}

describe('refused credentials, no tokens configured', () => {
  const server = serverFor();

  it.each([
    ['no Authorization header', undefined, 'Bearer realm="plantstore"'],
    ['the Basic scheme', 'Basic xyz', 'Bearer realm="plantstore"'],
    ['"Bearer" without a token', 'Bearer', 'Bearer realm="plantstore", error="invalid_token"'],
    ['"Bearer " with an empty token', 'Bearer ', 'Bearer realm="plantstore", error="invalid_token"'],
    ['"Bearer" and only spaces', 'Bearer    ', 'Bearer realm="plantstore", error="invalid_token"'],
  ])('%s → HTTP 400, Error 401, WWW-Authenticate: Bearer …, nothing stored', async (_label, authorization, challenge) => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postWith(server.current.url, authorization);
    expectError(reply, 400, 401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(await (await storedPlants(server.current)).count()).toBe(before);
  });

  it('checks credentials before the body: a bad body without a token is still a 401', async () => {
    const reply = await postPlant(server.current.url, '{not json', { ...JSON_TYPE });
    expectError(reply, 400, 401);
  });

  it('takes the scheme case-insensitively (bearer, BEARER)', async () => {
    expect((await postWith(server.current.url, 'bearer abc')).status).toBe(200);
    expect((await postWith(server.current.url, 'BEARER abc')).status).toBe(200);
  });

  it('never echoes an Authorization header that may be a bare token', async () => {
    for (const authorization of ['secret-token-456', 'Bearer\tsecret-token-123']) {
      const reply = await postPlant(server.current.url, plantText({ name: 'x', id: 6 }), { authorization, 'content-type': 'application/json' });
      expect(reply.json).toMatchObject({ error: 401 });
      expect(reply.text).not.toContain('secret-token');
    }
  });
});

describe('authStatus: 401', () => {
  const server = serverFor({ authStatus: 401 });

  it('answers refused credentials with HTTP 401 and the same Error body and challenge', async () => {
    const reply = await postWith(server.current.url, undefined);
    expect(expectError(reply, 401, 401)).toContain('Authorization');
    expect(reply.headers['www-authenticate']).toBe('Bearer realm="plantstore"');
  });

  it('still answers other failures with 400', async () => {
    expectError(await postPlant(server.current.url, '{"name":1,"id":1}'), 400, 422);
  });
});

describe("tokens: ['s3cret']", () => {
  const lines: string[] = [];
  const server = serverFor({ tokens: ['s3cret'], logLevel: 'debug', log: (line) => lines.push(line) });

  it('reports the configured token policy', () => {
    expect(server.current.tokenPolicy).toBe('configured');
  });

  it('accepts Bearer s3cret and stores the plant', async () => {
    const id = nextId();
    const reply = await postPlant(server.current.url, plantText({ name: 'Aloe', id }), { ...JSON_TYPE, authorization: 'Bearer s3cret' });
    expectCreated(reply, { name: 'Aloe' });
    expect((await (await storedPlants(server.current)).get(id))?.name).toBe('Aloe');
  });

  it('accepts the scheme in lower case: bearer s3cret', async () => {
    expectCreated(await postWith(server.current.url, 'bearer s3cret'), { name: 'Aloe' });
  });

  it('refuses another token: Error 401 with error="invalid_token" in WWW-Authenticate', async () => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postWith(server.current.url, 'Bearer other');
    expectError(reply, 400, 401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(reply.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(await (await storedPlants(server.current)).count()).toBe(before);
  });

  it('refuses a token that only starts with the right one, and one that differs in case', async () => {
    expectError(await postWith(server.current.url, 'Bearer s3cret2'), 400, 401);
    expectError(await postWith(server.current.url, 'Bearer S3CRET'), 400, 401);
  });

  it('never writes a token into a log line, even at debug level', async () => {
    await postWith(server.current.url, 'Bearer s3cret');
    await postWith(server.current.url, 'Bearer wrong-token-9c1e');
    const requestLines = lines.filter((line) => line.includes('POST /plants'));
    // The log did record these requests (so the check below looks at real lines).
    expect(requestLines.some((line) => / POST \/plants 200 /.test(line))).toBe(true);
    expect(requestLines.some((line) => / POST \/plants 400 /.test(line))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain('s3cret');
      expect(line).not.toContain('wrong-token-9c1e');
    }
  });
});

describe('the refusal names the scheme only when it is a registered one', () => {
  const server = serverFor();

  it.each([
    ['a registered scheme (any case)', 'negotiate abc', 'the Authorization header is "Negotiate"; this API uses Bearer'],
    ['Basic', 'Basic xyz', 'the Authorization header is "Basic"; this API uses Bearer'],
    // Short words that look like a scheme may be the token itself: never echoed.
    ['an unregistered first word', 's3cr3tT0ken x', 'the Authorization header is not "Bearer <token>"'],
    ['a bare token', 's3cr3tT0ken', 'the Authorization header is not "Bearer <token>"'],
  ])('%s', async (_label, authorization, message) => {
    const reply = await postWith(server.current.url, authorization);
    expect(expectError(reply, 400, 401)).toBe(message);
    expect(reply.text).not.toContain('s3cr3t');
  });
});
