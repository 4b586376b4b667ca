/**
 * DNS rebinding: a web page the developer visits re-points its own DNS name at 127.0.0.1 and
 * calls the stand-in same-origin, with `Host: evil.example:PORT`. Without an admin token the
 * control API answers only Hosts that name the server itself (loopback names, IP literals) or
 * that the user allowed; the API's own paths answer any Host (docker-compose service names).
 */
import { describe, expect, it } from 'vitest';
import {
  AUTH,
  expectCreated,
  expectError,
  idSequence,
  parseRawResponse,
  plantText,
  postPlant,
  rawExchange,
  send,
  serverFor,
  VALID_HEADERS,
} from '../support/server.js';
import { storedPlants } from '../support/plants.js';

const nextId = idSequence(90_000n);

function rebound(port: number): Record<string, string> {
  return { host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
}

describe('the open control API (no admin token)', () => {
  const server = serverFor({ seed: [{ id: 1n, name: 'Seeded' }] });

  it('refuses a rebound reset (Host and Origin evil.example) with 403 and an Error that says what to do; the store is kept', async () => {
    const reply = await send(`${server.current.url}/__control/plants`, { method: 'DELETE', headers: rebound(server.current.port) });
    const message = expectError(reply, 403, 403);
    expect(message).toContain('evil.example');
    expect(message).toContain('--allow-host');
    expect(message).toContain('admin token');
    expect((await (await storedPlants(server.current)).get(1n))?.name).toBe('Seeded');
  });

  it('refuses a rebound fault with 403; no fault is installed', async () => {
    const reply = await send(`${server.current.url}/__control/faults`, {
      method: 'POST',
      headers: { ...rebound(server.current.port), 'content-type': 'application/json' },
      body: '{"kind":"status","status":500}',
    });
    expectError(reply, 403, 403);
    expect(server.current.faults.list()).toEqual([]);
  });

  it.each([
    ['localhost with a port', (port: number) => `localhost:${port}`],
    ['a name under .localhost', (port: number) => `app.localhost:${port}`],
    ['LOCALHOST (case-insensitive)', () => 'LOCALHOST'],
    ['an IPv4 literal', (port: number) => `127.0.0.1:${port}`],
    ['another IPv4 literal (--host 0.0.0.0 reached by IP)', () => '192.168.1.20:4010'],
    ['a bracketed IPv6 literal', (port: number) => `[::1]:${port}`],
  ])('answers Host %s', async (_label, host) => {
    const reply = await send(`${server.current.url}/__control/health`, { headers: { host: host(server.current.port) } });
    expect(reply.status, reply.text).toBe(200);
  });

  it.each([
    ['a DNS name', 'evil.example'],
    ['a name that only starts like localhost', 'localhost.evil.example'],
    ['a name that only ends like an IP', 'evil.127.0.0.1.example'],
    ['an unbracketed IPv6 literal', '::1'],
  ])('refuses Host %s', async (_label, host) => {
    expectError(await send(`${server.current.url}/__control/health`, { headers: { host } }), 403, 403);
  });

  it('answers an HTTP/1.0 request without Host (no browser sends one)', async () => {
    const exchange = await rawExchange(server.current.port, 'GET /__control/health HTTP/1.0\r\n\r\n', 3_000);
    expect(parseRawResponse(exchange.text).status, exchange.text).toBe(200);
  });

  it("the API's own paths answer any Host: a docker-compose service name creates a plant", async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'via compose', id: nextId() }), { ...VALID_HEADERS, host: 'plantstore:4010' });
    expectCreated(reply, { name: 'via compose' });
  });
});

describe('allowedHosts', () => {
  const server = serverFor({ allowedHosts: ['plantstore', 'Dev.Example.'] });

  it.each([
    ['an allowed name with a port', 'plantstore:4010'],
    ['an allowed name written in another case, with a trailing dot', 'dev.example.'],
  ])('answers %s', async (_label, host) => {
    const reply = await send(`${server.current.url}/__control/health`, { headers: { host } });
    expect(reply.status, reply.text).toBe(200);
  });

  it('still refuses other names', async () => {
    expectError(await send(`${server.current.url}/__control/health`, { headers: rebound(server.current.port) }), 403, 403);
  });
});

describe("allowedHosts ['*']", () => {
  const server = serverFor({ allowedHosts: ['*'] });

  it('answers every name', async () => {
    const reply = await send(`${server.current.url}/__control/health`, { headers: rebound(server.current.port) });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('with an admin token the token protects the control API, whatever the Host', () => {
  const server = serverFor({ adminToken: 'admin-secret' });

  it('answers the token from any Host, and refuses a request without it with 401', async () => {
    const reply = await send(`${server.current.url}/__control/faults`, { headers: { ...rebound(server.current.port), authorization: 'Bearer admin-secret' } });
    expect(reply.status, reply.text).toBe(200);
    expectError(await send(`${server.current.url}/__control/faults`, { headers: { ...rebound(server.current.port), ...AUTH } }), 401, 401);
  });
});
