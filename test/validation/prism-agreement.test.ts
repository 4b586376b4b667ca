/**
 * The server's verdict on a body agrees with prism-http's validateInput (the reference), on
 * generated bodies valid and invalid: missing fields, wrong types, null, extra properties,
 * non-objects, ids in the safe range or beyond int64. The one documented divergence: ids in
 * (2^53 − 1, 2^63 − 1] (and their negatives down to −2^63), which prism refuses and the server,
 * holding int64 exactly, accepts.
 */
import type { IHttpOperation } from '@stoplight/types';
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postPlant, plantText, serverFor } from '../support/server.js';
import { createPlantOperation, prismAcceptsRequest } from './prism.js';
import { storedPlants } from '../support/plants.js';

const SEED = 20_260_522;

/** A value of the wrong type for any field of a NewPlant (a few of them right by chance: prism decides). */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(1e19, -1e19, 1e300, 0.5),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

const name = fc.string({ maxLength: 16 });
const safeId = fc.maxSafeInteger();
const validPlant = fc.record({ name, tag: name, id: safeId }, { requiredKeys: ['name', 'id'] });
const extras = fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 3 });

/** Bodies as JS values; each is sent as JSON.stringify of it and judged by prism on JSON.parse of that text. */
const body: fc.Arbitrary<unknown> = fc.oneof(
  validPlant,
  // Extra properties (which may themselves replace name, tag or id).
  fc.tuple(validPlant, extras).map(([plant, more]) => ({ ...plant, ...more })),
  // One field of the wrong type.
  fc.tuple(validPlant, fc.constantFrom('name', 'tag', 'id'), anyValue).map(([plant, field, value]) => ({ ...plant, [field]: value })),
  // Fields missing.
  fc.record({ name, tag: name, id: safeId }, { requiredKeys: [] }),
  // Not an object at all.
  anyValue,
);

describe('validation agrees with prism-http', () => {
  const server = serverFor();
  let operation: IHttpOperation;
  beforeAll(async () => {
    operation = await createPlantOperation();
  });
  // Every id is fresh for every body: no verdict is a 409 for an id an earlier body took.
  beforeEach(async () => (await storedPlants(server.current)).reset());

  it('gives the same verdict as validateInput on generated bodies (200 when prism accepts, else 400 with Error 422)', async () => {
    const verdicts = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        await (await storedPlants(server.current)).reset();
        const text = JSON.stringify(value) ?? 'null';
        const prism = prismAcceptsRequest(operation, text);
        const reply = await postPlant(server.current.url, text);
        if (prism.valid) {
          verdicts.accepted += 1;
          expect(reply.status, `prism accepts ${text}; the server said ${reply.text}`).toBe(200);
        } else {
          verdicts.refused += 1;
          expect({ status: reply.status, body: reply.json }, `prism refuses ${text} (${prism.messages.join('; ')})`).toEqual({
            status: 400,
            body: { error: 422, message: expect.any(String) },
          });
        }
      }),
      { numRuns: 400, seed: SEED },
    );
    // Both verdicts were exercised, so the agreement is not trivially one-sided.
    expect(verdicts.accepted).toBeGreaterThan(40);
    expect(verdicts.refused).toBeGreaterThan(40);
  });

  it('the property can fail: prism refuses a body the server accepts (an id beyond 2^53)', async () => {
    const text = plantText({ name: 'beyond', id: 9007199254740993n });
    expect(prismAcceptsRequest(operation, text).valid).toBe(false);
    expect((await postPlant(server.current.url, text)).status).toBe(200);
  });

  it('the documented divergence: ids in (2^53 − 1, 2^63 − 1] and [−2^63, −2^53 + 1) are refused by prism and accepted and stored exactly by the server', async () => {
    const beyondSafe = fc.oneof(
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
      fc.bigInt({ min: -(2n ** 63n), max: -(2n ** 53n) }),
      fc.constantFrom(2n ** 53n, 2n ** 63n - 1n, -(2n ** 53n), -(2n ** 63n)),
    );
    await fc.assert(
      fc.asyncProperty(beyondSafe, name, async (id, plantName) => {
        await (await storedPlants(server.current)).reset();
        const text = plantText({ name: plantName, id });
        expect(prismAcceptsRequest(operation, text).valid, `prism accepts ${text}`).toBe(false);
        const reply = await postPlant(server.current.url, text);
        expect(reply.status, reply.text).toBe(200);
        expect(await (await storedPlants(server.current)).get(id)).toEqual({ id, name: plantName });
      }),
      { numRuns: 60, seed: SEED },
    );
  });

  it('agrees at the edges of the safe range: ±(2^53 − 1) accepted by both', async () => {
    for (const id of [9007199254740991n, -9007199254740991n]) {
      const text = plantText({ name: 'edge', id });
      expect(prismAcceptsRequest(operation, text).valid).toBe(true);
      expect((await postPlant(server.current.url, text)).status).toBe(200);
    }
  });
});
