/**
 * Exact int64 in every parameter (test/fixtures/int64-parameters.yaml): path, query and header
 * parameters accept every int64, −2^63 … 2^63 − 1, where prism bounds them to ±(2^53 − 1), and
 * refuse one past either end with a message in int64's own words. The author's own bounds stay.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectError, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/int64-parameters.yaml', import.meta.url));

const INSIDE = ['9007199254740993', '9223372036854775807', '-9223372036854775808', '-9007199254740993', '0'];
const OUTSIDE = [
  ['9223372036854775808', 'must be <= 9223372036854775807 (int64)'],
  ['-9223372036854775809', 'must be >= -9223372036854775808 (int64)'],
] as const;

describe('int64 parameters over HTTP', () => {
  const server = serverFor({ spec: DOCUMENT });
  const get = (path: string, headers: Record<string, string> = {}) => send(`${server.current.url}${path}`, { headers });

  it.each(INSIDE)('accepts %s in the path, the query, a repeated query and a header', async (value) => {
    for (const reply of [
      await get(`/items/${value}`),
      await get(`/items/1?after=${value}`),
      await get(`/items/1?ids=1&ids=${value}`),
      await get('/items/1', { 'x-version': value }),
    ]) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.json).toEqual({ name: 'item' });
    }
  });

  it.each(OUTSIDE)('refuses %s in the path, the query, a repeated query and a header, saying int64', async (value, words) => {
    for (const [reply, name] of [
      [await get(`/items/${value}`), 'id'],
      [await get(`/items/1?after=${value}`), 'after'],
      [await get(`/items/1?ids=1&ids=${value}`), 'ids'],
      [await get('/items/1', { 'x-version': value }), 'x-version'],
    ] as const) {
      // A wrong path segment names no item (invalidId, Error 400); elsewhere it breaks the schema (422).
      const message = expectError(reply, 400, name === 'id' ? 400 : 422);
      expect(message).toContain(words);
      expect(message.toLowerCase()).toContain(name);
    }
  });

  it("keeps the author's own bounds and refuses what is no integer", async () => {
    expect((await get('/items/1?small=10')).status).toBe(200);
    expect(expectError(await get('/items/1?small=11'), 400, 422)).toContain('small');
    expect(expectError(await get('/items/1.5'), 400, 400)).toContain('id');
    expect(expectError(await get('/items/1?after=12abc'), 400, 422)).toContain('after');
  });
});
