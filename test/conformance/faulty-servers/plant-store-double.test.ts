/**
 * The double, checked by hand: the correct one answers the documented cases
 * right, and every fault really misbehaves as named — on a probe that the
 * correct double answers properly, so each fault test can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { FAULTS, FAULT_NAMES, startPlantStoreDouble, type FaultName, type PlantStoreDouble } from './plant-store-double.js';

interface Observation {
  readonly status?: number;
  readonly contentType?: string | undefined;
  readonly wwwAuthenticate?: string | undefined;
  readonly json?: unknown;
  readonly text?: string;
  readonly error?: 'timeout' | 'connection';
}

interface Send {
  readonly body?: string;
  /** Replaces the default headers (valid token, JSON content type) when given. */
  readonly headers?: Record<string, string>;
  readonly path?: string;
}

const AUTH = { authorization: 'Bearer test-token' };
const VALID_HEADERS = { ...AUTH, 'content-type': 'application/json' };

// One agent with short timeouts, so that the hanging fault is seen as a timeout, not a stuck test.
const agent = new Agent({ headersTimeout: 400, bodyTimeout: 400, keepAliveTimeout: 1_000 });
afterAll(() => agent.close());

async function send(base: string, { body, headers = VALID_HEADERS, path = '/plants' }: Send): Promise<Observation> {
  try {
    const response = await request(`${base}${path}`, { method: 'POST', headers, body: body ?? '', dispatcher: agent });
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: response.statusCode,
      contentType: header(response.headers['content-type']),
      wwwAuthenticate: header(response.headers['www-authenticate']),
      json,
      text,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { error: code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? 'timeout' : 'connection' };
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Each call gives an id no other call of this file uses, so stores never collide by accident. */
let nextId = 1_000;
const freshId = (): number => nextId++;

function expectCreated(observation: Observation, plant: { name: string; tag?: string }): void {
  expect(observation.status).toBe(200);
  expect(observation.contentType).toMatch(/^application\/json\b/);
  expect(observation.json).toEqual(plant);
}

function expectRefused(observation: Observation, code: number): void {
  expect(observation.status).toBe(400);
  expect(observation.contentType).toMatch(/^application\/json\b/);
  expect(observation.json).toEqual({ error: code, message: expect.any(String) });
}

describe('the correct double', () => {
  let double: PlantStoreDouble;
  beforeAll(async () => {
    double = await startPlantStoreDouble();
  });
  afterAll(() => double.close());

  it('creates a plant with a tag and echoes name and tag', async () => {
    expectCreated(await send(double.url, { body: `{"name":"Monstera deliciosa","tag":"aroid","id":${freshId()}}` }), {
      name: 'Monstera deliciosa',
      tag: 'aroid',
    });
  });

  it('creates a plant without a tag and echoes no tag', async () => {
    const observation = await send(double.url, { body: `{"name":"Golden barrel cactus","id":${freshId()}}` });
    expectCreated(observation, { name: 'Golden barrel cactus' });
    expect(observation.text).toBe('{"name":"Golden barrel cactus"}');
  });

  it('accepts any unicode name, "__proto__" keys and extra properties', async () => {
    const name = 'Ficus \u00e9 \u6728 \ud83c\udf35 \u0000 "\\';
    const body = `{"__proto__":{"x":1},"name":${JSON.stringify(name)},"extra":[1,{"constructor":null}],"id":${freshId()}}`;
    expectCreated(await send(double.url, { body }), { name });
  });

  it('keeps int64 ids exact: 2^53+1 and 2^53 are two plants, and 2^53+1 again is a duplicate', async () => {
    expectCreated(await send(double.url, { body: '{"name":"a","id":9007199254740993}' }), { name: 'a' });
    expectCreated(await send(double.url, { body: '{"name":"b","id":9007199254740992}' }), { name: 'b' });
    expectRefused(await send(double.url, { body: '{"name":"c","id":9007199254740993}' }), 409);
  });

  it('accepts the int64 bounds and integers written as 1.0 or 1e2 (JSON Schema integers)', async () => {
    for (const id of ['9223372036854775807', '-9223372036854775808', '1.0', '1e2', '0']) {
      expectCreated(await send(double.url, { body: `{"name":"bound","id":${id}}` }), { name: 'bound' });
    }
  });

  it.each([
    ['id just above int64', '{"name":"x","id":9223372036854775808}'],
    ['id just below int64', '{"name":"x","id":-9223372036854775809}'],
    ['id far beyond int64', '{"name":"x","id":1e400}'],
    ['fractional id', '{"name":"x","id":1.5}'],
    ['id as a string', '{"name":"x","id":"1"}'],
    ['null id', '{"name":"x","id":null}'],
    ['missing id', '{"name":"x"}'],
    ['missing name', '{"id":77}'],
    ['numeric name', '{"name":1,"id":78}'],
    ['numeric tag', '{"name":"x","tag":2,"id":79}'],
    ['an array body', '[{"name":"x","id":80}]'],
    ['a string body', '"plant"'],
    ['malformed JSON', '{"name":"x",'],
    ['trailing garbage', '{"name":"x","id":81} x'],
    ['an empty body', ''],
  ])('refuses %s with 400 / error 400', async (_label, body) => {
    expectRefused(await send(double.url, { body }), 400);
  });

  it('refuses a wrong or missing content type with 400 / error 400', async () => {
    const body = `{"name":"x","id":${freshId()}}`;
    expectRefused(await send(double.url, { body, headers: { ...AUTH, 'content-type': 'text/plain' } }), 400);
    expectRefused(await send(double.url, { body, headers: AUTH }), 400);
  });

  it.each([
    ['no Authorization header', {}],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['a Basic credential', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('refuses %s with 400 / error 401 and WWW-Authenticate: Bearer', async (_label, auth: Record<string, string>) => {
    const observation = await send(double.url, {
      body: `{"name":"x","id":${freshId()}}`,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expectRefused(observation, 401);
    expect(observation.wwwAuthenticate).toBe('Bearer');
  });

  it('answers other paths with a JSON 404', async () => {
    const observation = await send(double.url, { body: '{}', path: '/trees' });
    expect(observation.status).toBe(404);
    expect(observation.contentType).toMatch(/^application\/json\b/);
  });
});

/** A fault, the probe that shows it, and what the faulty and the correct double answer to it. */
interface FaultProbe {
  /** Sends the requests; the last observation is judged. */
  readonly probe: (url: string) => Promise<Observation>;
  readonly faulty: (observation: Observation) => void;
  readonly correct: (observation: Observation) => void;
}

const once = (body: string, headers?: Record<string, string>) => (url: string) => send(url, headers ? { body, headers } : { body });

/** Creates `first`, then sends `second`: the answer to `second` is judged. */
const twice = (first: string, second: string) => async (url: string) => {
  await send(url, { body: first });
  return send(url, { body: second });
};

const PROBES: Record<FaultName, FaultProbe> = {
  'accepts-missing-id': {
    probe: once('{"name":"no id"}'),
    faulty: (o) => expectCreated(o, { name: 'no id' }),
    correct: (o) => expectRefused(o, 400),
  },
  'accepts-fractional-id': {
    probe: once('{"name":"half","id":2.5}'),
    faulty: (o) => expectCreated(o, { name: 'half' }),
    correct: (o) => expectRefused(o, 400),
  },
  'accepts-id-beyond-int64': {
    probe: once('{"name":"big","id":9223372036854775808}'),
    faulty: (o) => expectCreated(o, { name: 'big' }),
    correct: (o) => expectRefused(o, 400),
  },
  'answers-201': {
    probe: once('{"name":"p","id":5}'),
    faulty: (o) => {
      expect(o.status).toBe(201);
      expect(o.json).toEqual({ name: 'p' });
    },
    correct: (o) => expectCreated(o, { name: 'p' }),
  },
  'answers-422-for-schema-violations': {
    probe: once('{"name":3,"id":5}'),
    faulty: (o) => expect(o.status).toBe(422),
    correct: (o) => expectRefused(o, 400),
  },
  'string-error-code': {
    probe: once('{"name":"p"}'),
    faulty: (o) => {
      expect(o.status).toBe(400);
      expect(o.json).toEqual({ error: '400', message: expect.any(String) });
    },
    correct: (o) => expectRefused(o, 400),
  },
  'error-code-beyond-int32': {
    probe: once('{"name":"p"}'),
    faulty: (o) => {
      expect(o.status).toBe(400);
      expect(o.json).toEqual({ error: 400 + 2 ** 32, message: expect.any(String) });
    },
    correct: (o) => expectRefused(o, 400),
  },
  'error-without-message': {
    probe: once('{"name":"p"}'),
    faulty: (o) => {
      expect(o.status).toBe(400);
      expect(o.json).toEqual({ error: 400 });
    },
    correct: (o) => expectRefused(o, 400),
  },
  '500-on-non-ascii-name': {
    probe: once('{"name":"Caf\u00e9 palm","id":6}'),
    faulty: (o) => expect(o.status).toBe(500),
    correct: (o) => expectCreated(o, { name: 'Caf\u00e9 palm' }),
  },
  'hangs-on-malformed-json': {
    probe: once('{"name":'),
    faulty: (o) => expect(o.error).toBe('timeout'),
    correct: (o) => expectRefused(o, 400),
  },
  'drops-connection-on-empty-body': {
    probe: once(''),
    faulty: (o) => expect(o.error).toBe('connection'),
    correct: (o) => expectRefused(o, 400),
  },
  'loses-int64-precision': {
    probe: twice('{"name":"a","id":9007199254740992}', '{"name":"b","id":9007199254740993}'),
    faulty: (o) => expectRefused(o, 409),
    correct: (o) => expectCreated(o, { name: 'b' }),
  },
  'accepts-without-token': {
    probe: once('{"name":"p","id":7}', { 'content-type': 'application/json' }),
    faulty: (o) => expectCreated(o, { name: 'p' }),
    correct: (o) => expectRefused(o, 401),
  },
  'accepts-empty-bearer-token': {
    probe: once('{"name":"p","id":7}', { authorization: 'Bearer ', 'content-type': 'application/json' }),
    faulty: (o) => expectCreated(o, { name: 'p' }),
    correct: (o) => expectRefused(o, 401),
  },
  'accepts-any-auth-scheme': {
    probe: once('{"name":"p","id":7}', { authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' }),
    faulty: (o) => expectCreated(o, { name: 'p' }),
    correct: (o) => expectRefused(o, 401),
  },
  'answers-401-for-missing-token': {
    probe: once('{"name":"p","id":7}', { 'content-type': 'application/json' }),
    faulty: (o) => {
      expect(o.status).toBe(401);
      expect(o.wwwAuthenticate).toBe('Bearer');
      expect(o.json).toEqual({ error: 401, message: expect.any(String) });
    },
    correct: (o) => expectRefused(o, 401),
  },
  'constant-name': {
    probe: once('{"name":"Aloe","id":8}'),
    faulty: (o) => expectCreated(o, { name: 'string' }),
    correct: (o) => expectCreated(o, { name: 'Aloe' }),
  },
  'omits-tag': {
    probe: once('{"name":"Aloe","tag":"succulent","id":8}'),
    faulty: (o) => expectCreated(o, { name: 'Aloe' }),
    correct: (o) => expectCreated(o, { name: 'Aloe', tag: 'succulent' }),
  },
  'text-plain-success': {
    probe: once('{"name":"Aloe","id":9}'),
    faulty: (o) => {
      expect(o.status).toBe(200);
      expect(o.contentType).toMatch(/^text\/plain\b/);
    },
    correct: (o) => expectCreated(o, { name: 'Aloe' }),
  },
  'text-plain-errors': {
    probe: once('{"name":"Aloe"}'),
    faulty: (o) => {
      expect(o.status).toBe(400);
      expect(o.contentType).toMatch(/^text\/plain\b/);
    },
    correct: (o) => expectRefused(o, 400),
  },
  'rejects-empty-name': {
    probe: once('{"name":"","id":10}'),
    faulty: (o) => expectRefused(o, 400),
    correct: (o) => expectCreated(o, { name: '' }),
  },
  'rejects-extra-properties': {
    probe: once('{"name":"Aloe","id":11,"color":"green"}'),
    faulty: (o) => expectRefused(o, 400),
    correct: (o) => expectCreated(o, { name: 'Aloe' }),
  },
  'accepts-duplicate-ids': {
    probe: twice('{"name":"a","id":12}', '{"name":"b","id":12}'),
    faulty: (o) => expectCreated(o, { name: 'b' }),
    correct: (o) => expectRefused(o, 409),
  },
  'forgets-plants': {
    probe: async (url) => {
      for (const id of [20, 21, 22, 23]) await send(url, { body: `{"name":"p","id":${id}}` });
      return send(url, { body: '{"name":"again","id":20}' });
    },
    faulty: (o) => expectCreated(o, { name: 'again' }),
    correct: (o) => expectRefused(o, 409),
  },
};

describe('each fault misbehaves as named, on a probe the correct double answers right', () => {
  it.each(FAULT_NAMES.map((fault) => [fault, FAULTS[fault]] as const))('%s: %s', async (fault) => {
    const { probe, faulty, correct } = PROBES[fault];
    const [faultyDouble, correctDouble] = await Promise.all([startPlantStoreDouble(fault), startPlantStoreDouble()]);
    try {
      faulty(await probe(faultyDouble.url));
      correct(await probe(correctDouble.url));
    } finally {
      await Promise.all([faultyDouble.close(), correctDouble.close()]);
    }
  });

  it('a faulty double differs from the correct one only on its fault: valid creates still succeed', async () => {
    for (const fault of FAULT_NAMES) {
      if (fault === 'answers-201' || fault === 'text-plain-success' || fault === 'constant-name') continue;
      const double = await startPlantStoreDouble(fault);
      try {
        expectCreated(await send(double.url, { body: '{"name":"Aloe","tag":"t","id":42}' }), {
          name: 'Aloe',
          ...(fault === 'omits-tag' ? {} : { tag: 't' }),
        });
      } finally {
        await double.close();
      }
    }
  });
});
