/**
 * `server.journal.received(operation, fields)`: what a test suite asks the stand-in after driving a
 * frontend ("was exactly one plant with id 1 sent?"). Ids compare by value, exactly.
 */
import { describe, expect, it } from 'vitest';
import { postPlant, plantText, serverFor } from '../support/server.js';

describe('journal.received', () => {
  const server = serverFor();

  it('finds the createPlant requests whose body has the fields, ids compared exactly', async () => {
    await postPlant(server.current.url, plantText({ name: 'one', id: 1 }));
    await postPlant(server.current.url, plantText({ name: '2^53', id: 9007199254740992n }));
    await postPlant(server.current.url, plantText({ name: '2^53 + 1', id: 9007199254740993n }));
    expect(server.current.journal.received('createPlant', { id: 1 }).map((entry) => entry.status)).toEqual([200]);
    expect(server.current.journal.received('createPlant', { id: 9007199254740993n }).map((entry) => entry.request.body)).toEqual([
      '{"name":"2^53 + 1","id":9007199254740993}',
    ]);
    expect(server.current.journal.received('createPlant', { name: 'one' })).toHaveLength(1);
  });

  it('is not thrown off by a journaled body whose id is not an integer', async () => {
    await postPlant(server.current.url, '{"name":"frac","id":1.5}');
    await postPlant(server.current.url, plantText({ name: 'seven', id: 7 }));
    expect(server.current.journal.received('createPlant', { id: 7 }).map((entry) => entry.status)).toEqual([200]);
    expect(server.current.journal.received('createPlant', { id: 9007199254740993n })).toHaveLength(1);
  });
});
