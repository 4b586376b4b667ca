/**
 * A Prefer header that cannot be read is the client's mistake, said as such: ignored, the request
 * would go on to the store and create the plant the client meant only to mock.
 */
import { describe, expect, it } from 'vitest';
import { expectError, postPlant, plantText, serverFor, VALID_HEADERS } from '../support/server.js';
import { storedPlants } from '../support/plants.js';

describe('a malformed Prefer on POST /plants', () => {
  const server = serverFor();

  it.each([
    ['code=abc', /code .*"abc"/],
    ['code=2OO', /code .*"2OO"/],
    ['code=600', /code .*"600"/],
    ['code=200 example=monstera', /comma/],
    ['dynamic=maybe', /dynamic .*"maybe"/],
    ['example=', /example/],
    ['code:200', /"code:200" is not a preference/],
  ])('Prefer: %s is refused with Error 400 naming the header, and nothing is stored', async (prefer, why) => {
    const before = await (await storedPlants(server.current)).count();
    const reply = await postPlant(server.current.url, plantText({ name: 'typo', id: 77 }), { ...VALID_HEADERS, prefer });
    const message = expectError(reply, 400, 400);
    expect(message).toContain('Prefer');
    expect(message).toMatch(why);
    expect(await (await storedPlants(server.current)).count()).toBe(before);
  });

  it('ignores a well-formed preference that is not ours (RFC 7240): the plant is stored', async () => {
    const reply = await postPlant(server.current.url, plantText({ name: 'kept', id: 78 }), { ...VALID_HEADERS, prefer: 'return=minimal, respond-async' });
    expect(reply.status).toBe(200);
    expect(await (await storedPlants(server.current)).get(78n)).toMatchObject({ name: 'kept' });
  });
});
