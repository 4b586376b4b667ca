import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { postPlant, serverFor, plantText, send, VALID_HEADERS } from '../support/server.js';
import { FaultError } from '../../src/faults/faults.js';
import { startServer } from '../../src/index.js';
import { storedPlants } from '../support/plants.js';

/** Faults shape answers on purpose; each test sets its own and the registry is cleared after. */
describe('faults', () => {
  const server = serverFor();
  let nextId = 7_000_000n;
  const plant = () => plantText({ name: 'Fern', id: nextId++ });
  afterEach(() => server.current.faults.clear());

  it('forces a status with an Error body and leaves the store untouched', async () => {
    server.current.faults.add({ kind: 'status', status: 503, message: 'down for maintenance' });
    const before = await (await storedPlants(server.current)).count();
    const reply = await postPlant(server.current.url, plant());
    expect(reply.status).toBe(503);
    expect(reply.json).toEqual({ error: 503, message: 'down for maintenance' });
    expect(await (await storedPlants(server.current)).count()).toBe(before);
  });

  it('applies to the next N requests only, then removes itself', async () => {
    server.current.faults.add({ kind: 'status', status: 500, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await postPlant(server.current.url, plant())).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(server.current.faults.list()).toEqual([]);
  });

  it('applies only to the named operation', async () => {
    // A document with two operations: a fault on createPlant leaves getPet alone.
    const pets = await startServer({ port: 0, spec: fileURLToPath(new URL('../fixtures/pets.yaml', import.meta.url)) });
    try {
      pets.faults.add({ kind: 'status', status: 502, operation: 'createPlant' });
      expect((await send(`${pets.url}/pets/42`, { headers: { authorization: 'Bearer t' } })).status).toBe(200);
      expect((await postPlant(pets.url, plant())).status).toBe(502);
    } finally {
      await pets.close();
    }
  });

  it('applies to about the given percentage of requests', async () => {
    server.current.faults.add({ kind: 'status', status: 500, percentage: 50 });
    let failed = 0;
    for (let i = 0; i < 200; i += 1) if ((await postPlant(server.current.url, plant())).status === 500) failed += 1;
    // 200 draws at p = 0.5: outside 60..140 has a probability below 1e-8.
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });

  it('delays the answer by the latency', async () => {
    server.current.faults.add({ kind: 'latency', latencyMs: 300 });
    const started = performance.now();
    const reply = await postPlant(server.current.url, plant());
    expect(reply.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('finishes a request whose client left during a latency fault (it is journaled, nothing hangs)', async () => {
    server.current.journal.clear();
    server.current.faults.add({ kind: 'latency', latencyMs: 300, times: 1 });
    const leaving = request(`${server.current.url}/plants`, {
      method: 'POST',
      headers: VALID_HEADERS,
      body: plantText({ name: 'gone', id: 9 }),
      signal: AbortSignal.timeout(50),
    });
    await expect(leaving).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.current.journal.entries({ operation: 'createPlant' })).toHaveLength(1);
    expect(await (await storedPlants(server.current)).get(9n)).toBeUndefined();
  });

  it('resets or empties the connection without answering', async () => {
    for (const kind of ['reset', 'empty'] as const) {
      server.current.faults.add({ kind, times: 1 });
      await expect(postPlant(server.current.url, plant())).rejects.toThrow();
    }
    // And the server goes on answering.
    expect((await postPlant(server.current.url, plant())).status).toBe(200);
  });

  it('drips a slow body: the answer is whole but arrives over the duration', async () => {
    server.current.faults.add({ kind: 'slow-body', bodyDurationMs: 400 });
    const url = new URL(server.current.url);
    const body = plant();
    const arrivals: number[] = [];
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        // write, not end: Node closes a half-closed connection at once, as no browser would make it.
        socket.write(
          `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        arrivals.push(performance.now() - started);
        received += chunk.toString();
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text).toContain('{"name":"Fern"}');
    expect(arrivals.length).toBeGreaterThan(2);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it('drips a slow body over the whole duration: the last byte comes at its end, not at 90 % of it', async () => {
    server.current.faults.add({ kind: 'slow-body', bodyDurationMs: 1000 });
    const response = await request(`${server.current.url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: plant() });
    const headAt = performance.now();
    expect(await response.body.text()).toContain('{"name":"Fern"}');
    const elapsed = performance.now() - headAt;
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1500);
  });

  it('sends the headers a status fault carries, e.g. Retry-After', async () => {
    server.current.faults.add({ kind: 'status', status: 503, headers: { 'Retry-After': '5', 'X-Fault': 'on purpose' } });
    const reply = await postPlant(server.current.url, plant());
    expect(reply.status).toBe(503);
    expect(reply.headers['retry-after']).toBe('5');
    expect(reply.headers['x-fault']).toBe('on purpose');
    expect(reply.json).toEqual({ error: 503, message: expect.any(String) });
  });

  it.each([
    [{ kind: 'status', status: 503, headers: { 'Content-Length': '0' } }, /Content-Length is the server's/],
    [{ kind: 'status', status: 503, headers: { 'Bad Name': 'x' } }, /not a header name/],
    [{ kind: 'status', status: 503, headers: { 'Retry-After': '5\r\nSet-Cookie: a=b' } }, /without control characters/],
    [{ kind: 'latency', latencyMs: 5, headers: { 'Retry-After': '5' } }, /status fault only/],
  ])('refuses fault headers that cannot be sent: %j', (spec, why) => {
    expect(() => server.current.faults.add(spec as Parameters<typeof server.current.faults.add>[0])).toThrow(why);
  });

  it('refuses a fault that cannot be applied, naming the field', () => {
    expect(() => server.current.faults.add({ kind: 'status' })).toThrow(FaultError);
    expect(() => server.current.faults.add({ kind: 'status' })).toThrow(/status/);
    expect(() => server.current.faults.add({ kind: 'latency', latencyMs: -1 })).toThrow(/latencyMs/);
    expect(() => server.current.faults.add({ kind: 'status', status: 500, percentage: 101 })).toThrow(/percentage/);
  });

  it('refuses 1xx status faults and sends 204 without a body', async () => {
    expect(() => server.current.faults.add({ kind: 'status', status: 103 })).toThrow(/from 200 to 599/);
    server.current.faults.add({ kind: 'status', status: 204, times: 1 });
    const reply = await postPlant(server.current.url, plantText({ name: 'x', id: 7 }));
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
  });

  it('does not touch requests outside the API (404 still answers)', async () => {
    server.current.faults.add({ kind: 'status', status: 500 });
    expect((await send(`${server.current.url}/nope`)).status).toBe(404);
  });

  it('refuses, at start, a fault naming an operation the document does not have', async () => {
    await expect(startServer({ port: 0, faults: [{ kind: 'status', status: 500, operation: 'createPlants' }] })).rejects.toThrow(
      /faults\[0\]: operation must name an operation of the document \(createPlant\), not "createPlants"/,
    );
  });
});
