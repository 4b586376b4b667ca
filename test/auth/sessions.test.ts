/**
 * Sessions end on `serve`, as a real API's do (docs/sign-in.md, "Sessions end"), over real sockets
 * on notes-sign-in.yaml: a log-out (POST /logout) ends the session of the token it carries, which
 * is then refused with 401, `error="invalid_token"` and a message saying it was logged out, while
 * the user's other tokens still work; an issued token expires after the `expires_in` the answer
 * declares (its example, 7200), or after --token-lifetime, and is then refused saying it expired.
 * Neither token reaches the log or the journal in clear.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, send, serverFor, type Reply } from '../support/server.js';

const NOTES = fileURLToPath(new URL('../fixtures/documents/notes-sign-in.yaml', import.meta.url));
const PASSWORD = 'correct horse battery';

function post(url: string, body: unknown, token?: string): Promise<Reply> {
  const headers = token === undefined ? JSON_TYPE : { ...JSON_TYPE, authorization: `Bearer ${token}` };
  return send(url, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

function get(url: string, token: string): Promise<Reply> {
  return send(url, { headers: { authorization: `Bearer ${token}` } });
}

type SignedIn = { readonly id: number; readonly token: string; readonly expires_in?: number };

describe('a log-out ends the session of the token it carries', () => {
  const logged: string[] = [];
  const server = serverFor({ spec: NOTES, logLevel: 'debug', log: (line) => logged.push(line) });

  it('answers its declared 204; the token is then refused as logged out, the user’s other token still works', async () => {
    const { url } = server.current;
    const signedUp = await post(`${url}/users`, { username: 'ada', email: 'ada@example.com', password: PASSWORD });
    expect(signedUp.status, signedUp.text).toBe(201);
    const first = (signedUp.json as SignedIn).token;
    const loggedIn = await post(`${url}/login`, { username: 'ada', password: PASSWORD });
    const { token } = loggedIn.json as SignedIn;
    expect((await get(`${url}/me`, token)).status).toBe(200);

    const out = await post(`${url}/logout`, undefined, token);
    expect(out.status, out.text).toBe(204);
    expect(out.text).toBe('');

    for (const refused of [await get(`${url}/me`, token), await get(`${url}/notes`, token), await post(`${url}/logout`, undefined, token)]) {
      expect(refused.status, refused.text).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect((refused.json as { message: string }).message).toMatch(/logged out/);
    }
    // Ended on this one token only: the sign-up's token is another session.
    expect((await get(`${url}/me`, first)).status).toBe(200);
    // A made-up token is still told it was never issued.
    expect(((await get(`${url}/me`, 'made-up-token-0123456789')).json as { message: string }).message).toMatch(/not one this server issued/);

    const journal = await send(`${url}/__control/journal`);
    for (const secret of [token, first, PASSWORD]) {
      expect(journal.text).not.toContain(secret);
      expect(logged.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});

describe('an issued token expires after the expires_in its answer declares', () => {
  const declared = serverFor({ spec: NOTES });
  const short = serverFor({ spec: NOTES, tokenLifetime: 1 });

  it('answers the example’s expires_in (7200) at sign-up and log-in', async () => {
    const { url } = declared.current;
    const signedUp = await post(`${url}/users`, { username: 'grace', email: 'grace@example.com', password: PASSWORD });
    expect(signedUp.status, signedUp.text).toBe(201);
    expect((signedUp.json as SignedIn).expires_in).toBe(7200);
    const loggedIn = await post(`${url}/login`, { username: 'grace', password: PASSWORD });
    expect((loggedIn.json as SignedIn).expires_in).toBe(7200);
    expect((await get(`${url}/me`, (loggedIn.json as SignedIn).token)).status).toBe(200);
  });

  it('with --token-lifetime 1, answers expires_in 1 and refuses the token as expired a second later', async () => {
    const { url } = short.current;
    const signedUp = await post(`${url}/users`, { username: 'linus', email: 'linus@example.com', password: PASSWORD });
    const { token, expires_in } = signedUp.json as SignedIn;
    expect(expires_in).toBe(1);
    expect((await get(`${url}/me`, token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await get(`${url}/me`, token);
    expect(refused.status, refused.text).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect((refused.json as { message: string }).message).toMatch(/expired/);
    // A new log-in gives a new, live token.
    const again = await post(`${url}/login`, { username: 'linus', password: PASSWORD });
    expect((await get(`${url}/me`, (again.json as SignedIn).token)).status).toBe(200);
  });
});

describe('a public document: GoTrue (Supabase Auth), cut down', () => {
  const GOTRUE = fileURLToPath(new URL('../fixtures/documents/gotrue-sessions.yaml', import.meta.url));
  const server = serverFor({ spec: GOTRUE });
  type TokenResponse = { readonly access_token: string; readonly expires_in: number };

  it('signs up at /signup, logs in at /token with an hour’s expires_in, and POST /logout ends that session', async () => {
    const { url } = server.current;
    const signedUp = await post(`${url}/signup`, { email: 'ada@example.com', password: PASSWORD });
    expect(signedUp.status, signedUp.text).toBe(200);
    const loggedIn = await post(`${url}/token?grant_type=password`, { email: 'ada@example.com', password: PASSWORD });
    expect(loggedIn.status, loggedIn.text).toBe(200);
    const { access_token, expires_in } = loggedIn.json as TokenResponse;
    // The document declares expires_in without an example: an hour.
    expect(expires_in).toBe(3600);
    expect((await get(`${url}/user`, access_token)).json).toMatchObject({ email: 'ada@example.com' });
    expect((await post(`${url}/logout`, undefined, access_token)).status).toBe(204);
    const refused = await get(`${url}/user`, access_token);
    expect(refused.status, refused.text).toBe(401);
    expect(refused.text).toMatch(/logged out/);
    expect((await get(`${url}/user`, (signedUp.json as TokenResponse).access_token)).status).toBe(200);
  });
});
