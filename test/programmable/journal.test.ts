import { describe, expect, it } from 'vitest';
import { postPlant, serverFor, plantText, send } from '../server/helpers.js';
import { startServer } from '../../src/index.js';

describe('request journal', () => {
  const server = serverFor({ tokens: ['s3cret-token'] });
  const headers = { authorization: 'Bearer s3cret-token', 'content-type': 'application/json' };

  it('records each request: operation, status, validation outcome, masked credentials', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Monstera', id: 1 }), headers);
    await postPlant(server.current.url, '{"name": 3, "id": 2}', headers);
    await postPlant(server.current.url, plantText({ name: 'Monstera', id: 1 }), { ...headers, authorization: 'Bearer wrong' });
    const [created, invalid, refused] = server.current.journal.entries();
    expect(created).toMatchObject({ operation: 'createPlant', method: 'POST', path: '/plants', status: 200, validation: { ok: true } });
    expect(created?.request.body).toBe('{"name":"Monstera","id":1}');
    expect(created?.response.body).toBe('{"name":"Monstera"}');
    expect(invalid).toMatchObject({ status: 400, validation: { ok: false, error: 422 } });
    expect(invalid?.validation).toMatchObject({ message: expect.stringContaining('name') });
    // Refused before validation: no outcome recorded, and the token never appears.
    expect(refused?.validation).toBeUndefined();
    for (const entry of server.current.journal.entries()) {
      expect(JSON.stringify(entry)).not.toContain('s3cret');
      expect(JSON.stringify(entry)).not.toContain('wrong');
      expect(entry.request.headers.authorization).toBe('Bearer ***');
    }
  });

  it('answers "exactly one createPlant with name X was received"', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Fern', id: 10 }), headers);
    await postPlant(server.current.url, plantText({ name: 'Cactus', id: 11 }), headers);
    await postPlant(server.current.url, plantText({ name: 'Fern', tag: 'x', id: 12 }), headers);
    expect(server.current.journal.received('createPlant', { name: 'Cactus' })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { name: 'Fern' })).toHaveLength(2);
    expect(server.current.journal.received('createPlant', { name: 'Fern', tag: 'x' })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { id: 11 })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { name: 'Rose' })).toHaveLength(0);
  });

  it('matches int64 ids exactly beyond 2^53', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Big', id: '9007199254740993' }), headers);
    expect(server.current.journal.received('createPlant', { id: 9007199254740993n })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { id: 9007199254740992n })).toHaveLength(0);
  });

  it('keeps only the last N entries and truncates large bodies', async () => {
    const small = await startServer({ port: 0, journalSize: 3 });
    try {
      for (let id = 1; id <= 5; id += 1) await postPlant(small.url, plantText({ name: 'x'.repeat(id === 5 ? 10_000 : 1), id }));
      const entries = small.journal.entries();
      expect(entries.map((entry) => entry.sequence)).toEqual([3, 4, 5]);
      expect(entries[2]?.request.truncated).toBe(true);
      expect(entries[2]?.request.bodySize).toBeGreaterThan(10_000);
      expect(entries[2]?.request.body.length).toBeLessThan(5_000);
      expect(small.journal.entries({ limit: 1 })).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('records unrouted requests too, without an operation', async () => {
    server.current.journal.clear();
    await send(`${server.current.url}/nowhere`);
    expect(server.current.journal.entries()).toMatchObject([{ status: 404, path: '/nowhere' }]);
    expect(server.current.journal.entries()[0]?.operation).toBeUndefined();
  });
});
