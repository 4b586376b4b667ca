/**
 * A replace or update body whose schema gives properties without `type: object` (common in
 * hand-written documents) lets any non-object through validation: the stand-in refuses it with the
 * document's 400 (parts.ts, compileChangeOf) and the item stays as it was.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectError, send, serverFor } from '../support/server.js';

const SPEC = fileURLToPath(new URL('./documents/untyped-bodies.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };

describe('a replace or update by a body that is no JSON object', () => {
  const server = serverFor({ spec: SPEC });

  it('is refused with 400, naming what it takes, and changes nothing', async () => {
    const url = `${server.current.url}/things`;
    expect((await send(url, { method: 'POST', headers: JSON_TYPE, body: '{"id":1,"name":"kept"}' })).status).toBe(201);
    for (const [method, verb] of [
      ['PUT', 'replaced'],
      ['PATCH', 'updated'],
    ] as const) {
      for (const body of ['[{"name":"x"}]', '"x"', '42', 'true']) {
        const refused = await send(`${url}/1`, { method, headers: JSON_TYPE, body });
        expect(expectError(refused, 400, 400), `${method} ${body}`).toBe(`a thing is ${verb} by a JSON object`);
      }
    }
    const read = await send(`${url}/1`);
    expect(read.json).toEqual({ id: 1, name: 'kept' });
    const changed = await send(`${url}/1`, { method: 'PATCH', headers: JSON_TYPE, body: '{"name":"new"}' });
    expect(changed.json).toEqual({ id: 1, name: 'new' });
  });
});
