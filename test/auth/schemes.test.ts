/**
 * --token on every kind of scheme (test/fixtures/auth-schemes.yaml), over real sockets: a missing
 * or wrong credential is refused with the declared 401 in the declared shape, the right one is
 * served; WWW-Authenticate only for HTTP schemes; tokens never reach the log or the journal.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { send, serverFor, type Reply } from '../support/server.js';

const SCHEMES = fileURLToPath(new URL('../fixtures/auth-schemes.yaml', import.meta.url));
const KEY = 's3cret-key-7f1';
const BASIC_TOKEN = 'alice:pw-9e2';
const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

describe('--token enforced for every scheme the document declares', () => {
  const lines: string[] = [];
  const server = serverFor({ spec: SCHEMES, tokens: [KEY, BASIC_TOKEN], logLevel: 'debug', log: (line) => lines.push(line) });
  const get = (path: string, headers: Record<string, string> = {}): Promise<Reply> => send(`${server.current.url}${path}`, { headers });

  function expectRefused(reply: Reply, http: 'Basic' | 'Bearer' | undefined): void {
    expect(reply.status, reply.text).toBe(401);
    if (http === undefined) expect(reply.headers['www-authenticate']).toBeUndefined();
    else expect(reply.headers['www-authenticate']).toMatch(new RegExp(`^${http} realm=`));
    for (const secret of [KEY, 'pw-9e2', 'wrong-key-3b']) expect(reply.text).not.toContain(secret);
  }

  it('apiKey in Authorization behind "Token " (learnt from the description): the key after the prefix', async () => {
    expect((await get('/token', { authorization: `Token ${KEY}` })).json).toEqual({ name: 'thing' });
    expect((await get('/token', { authorization: `token  ${KEY}` })).status).toBe(200);
    for (const authorization of [undefined, 'Token wrong-key-3b', KEY, `Bearer ${KEY}`, 'Token ']) {
      const reply = await get('/token', authorization === undefined ? {} : { authorization });
      expectRefused(reply, undefined);
      // Conduit's {errors: {body: [text]}}, with the reason in it.
      expect(reply.json).toEqual({ errors: { body: [expect.stringMatching(/API key|Authorization/)] } });
    }
  });

  it('apiKey in the query and in a cookie: a configured token only, refused in problem+json without a challenge', async () => {
    expect((await get(`/query?api_key=${KEY}`)).status).toBe(200);
    expect((await get('/cookie', { cookie: `theme=dark; session=${KEY}` })).status).toBe(200);
    for (const reply of [await get('/query'), await get('/query?api_key=wrong-key-3b'), await get('/cookie', { cookie: 'session=wrong-key-3b' })]) {
      expectRefused(reply, undefined);
      expect(reply.headers['content-type']).toBe('application/problem+json');
      expect(reply.json).toMatchObject({ status: 401, detail: expect.stringContaining('API key') });
    }
  });

  it('basic: "user:password" as a token admits that user only; a wrong one gets a Basic challenge', async () => {
    expect((await get('/basic', { authorization: basic(BASIC_TOKEN) })).status).toBe(200);
    // A token without a colon is a password any user may send.
    expect((await get('/basic', { authorization: basic(`bob:${KEY}`) })).status).toBe(200);
    for (const authorization of [basic('bob:pw-9e2'), basic('alice:wrong-key-3b'), `Bearer ${KEY}`])
      expectRefused(await get('/basic', { authorization }), 'Basic');
    expectRefused(await get('/basic'), 'Basic');
  });

  it('bearer: a configured token only, with a Bearer challenge', async () => {
    expect((await get('/bearer', { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expectRefused(await get('/bearer', { authorization: 'Bearer wrong-key-3b' }), 'Bearer');
  });

  it('alternatives: bearer or the query key; a combination needs both; security: [] opens', async () => {
    expect((await get('/either', { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await get(`/either?api_key=${KEY}`)).status).toBe(200);
    expectRefused(await get('/either?api_key=wrong-key-3b'), 'Bearer');
    expect((await get('/both', { authorization: basic(BASIC_TOKEN), 'x-api-key': KEY })).status).toBe(200);
    expectRefused(await get('/both', { authorization: basic(BASIC_TOKEN) }), undefined);
    expectRefused(await get('/both', { 'x-api-key': KEY }), 'Basic');
    expect((await get('/open')).status).toBe(200);
  });

  it('never writes a key into a log line or the journal, in a header, the query or a cookie', async () => {
    await get(`/query?api_key=${KEY}`);
    await get('/cookie', { cookie: `session=${KEY}` });
    await get('/token', { authorization: `Token ${KEY}` });
    await get('/basic', { authorization: basic(BASIC_TOKEN) });
    const journal = await get('/__control/journal');
    expect(journal.status).toBe(200);
    expect(journal.text).toContain('"query":"api_key=***"');
    expect(journal.text).toContain('session=***');
    for (const text of [journal.text, ...lines]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(Buffer.from(BASIC_TOKEN).toString('base64'));
    }
  });
});

describe('no tokens configured: any non-empty key, but in the declared form', () => {
  const server = serverFor({ spec: SCHEMES });
  const get = (path: string, headers: Record<string, string> = {}): Promise<Reply> => send(`${server.current.url}${path}`, { headers });

  it('accepts any key behind the prefix, refuses one without it', async () => {
    expect((await get('/token', { authorization: 'Token anything' })).status).toBe(200);
    const bare = await get('/token', { authorization: 'anything' });
    expect(bare.status).toBe(401);
    expect(bare.json).toEqual({ errors: { body: ['the API key in the Authorization header does not start with "Token "; send "Token <key>"'] } });
    expect((await get('/query?api_key=anything')).status).toBe(200);
    expect((await get('/basic', { authorization: basic('any:one') })).status).toBe(200);
  });
});
